import { CreditCard } from 'lucide-react';
import { type FormEvent, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/translation.tsx';
import type { SandboxCheckout } from '#common/api/game-store.schema.ts';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { Button } from '../../ui/button.tsx';
import { fieldErrorsOf, messageOf } from '../../ui/form-errors.ts';
import { FormAlert, TextField } from '../../ui/form-field.tsx';
import { formatMoney } from '#common/money.ts';

/**
 * The sandbox's checkout window (decision 064): a card form that takes the test cards, a bank
 * challenge for the card that asks for one, and the outcome. The payment reaches the order
 * through the webhook, as Xsolla's would; the game's page sees it there.
 */
export function SandboxCheckoutPage({ token, checkout }: { token: string; checkout: SandboxCheckout }) {
  const { t } = useTranslation('payments');
  const locale = useLocale();
  const [card, setCard] = useState('');
  const [expiry, setExpiry] = useState('12/30');
  const [cvc, setCvc] = useState('123');
  const [code, setCode] = useState('');
  const [step, setStep] = useState<'card' | 'challenge' | 'paid'>(checkout.status === 'paid' ? 'paid' : 'card');
  const [error, setError] = useState<string | null>(null);
  const [cardError, setCardError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const cardInput = useRef<HTMLInputElement>(null);
  const expiryInput = useRef<HTMLInputElement>(null);
  const cvcInput = useRef<HTMLInputElement>(null);

  // What was typed while the page loaded, before React took the fields over, is kept (decision 118).
  useLayoutEffect(() => {
    for (const [input, set] of [
      [cardInput, setCard],
      [expiryInput, setExpiry],
      [cvcInput, setCvc],
    ] as const) {
      const typed = input.current?.value;
      if (typed) set(typed);
    }
  }, []);

  const pay = async (challenge?: string) => {
    setBusy(true);
    setError(null);
    setCardError(null);
    try {
      const { data } = await api.post('/payment/sandbox/pay/', { token, card, ...(challenge === undefined ? {} : { challenge }) }, { once: true });
      if (data.outcome === 'paid') {
        setStep('paid');
        setTimeout(() => window.close(), 1500);
      } else if (data.outcome === 'challenge') setStep('challenge');
      else {
        setStep('card');
        setError(t('sandbox.declined'));
      }
    } catch (failure) {
      // A refused card number (none typed) is told at its field; the order is unchanged.
      const fieldError = fieldErrorsOf(failure).card;
      if (fieldError) setCardError(fieldError);
      else setError(messageOf(failure, t('buy.failed')));
    } finally {
      setBusy(false);
    }
  };
  const submitCard = (event: FormEvent) => {
    event.preventDefault();
    void pay();
  };
  const submitChallenge = (event: FormEvent) => {
    event.preventDefault();
    void pay(code.trim());
  };
  const price = formatMoney(checkout.amount, checkout.currency, locale);

  return (
    <div className="mx-auto flex min-h-dvh max-w-sm flex-col justify-center gap-5 p-6" data-testid="sandbox-checkout">
      <div>
        <p className="text-xs font-medium tracking-wide text-amber-700 uppercase dark:text-amber-400">{t('sandbox.notice')}</p>
        <h1 className="mt-2 text-xl font-semibold">{t('sandbox.title')}</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          {checkout.itemName} · {checkout.appTitle} · <strong>{price}</strong>
        </p>
      </div>
      {step === 'paid' ? (
        <output
          className="rounded-lg border border-green-200 bg-green-50 p-3 text-sm text-green-900 dark:border-green-900 dark:bg-green-950 dark:text-green-100"
          data-testid="sandbox-paid"
        >
          {t('sandbox.paid')}
        </output>
      ) : step === 'challenge' ? (
        <form onSubmit={submitChallenge} className="space-y-4" data-testid="sandbox-challenge">
          <h2 className="font-medium">{t('sandbox.challengeTitle')}</h2>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('sandbox.challengeBody')}</p>
          <TextField
            label={t('sandbox.challengeCode')}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            disabled={busy}
          />
          <FormAlert message={error} />
          <Button type="submit" className="w-full" disabled={busy}>
            {t('sandbox.confirm')}
          </Button>
        </form>
      ) : (
        <form onSubmit={submitCard} className="space-y-4" data-testid="sandbox-card">
          <p className="text-xs text-zinc-500 dark:text-zinc-400">{t('sandbox.cards')}</p>
          <TextField
            label={t('sandbox.card')}
            name="card"
            inputMode="numeric"
            autoComplete="cc-number"
            ref={cardInput}
            value={card}
            onChange={(e) => setCard(e.target.value)}
            error={cardError}
            disabled={busy}
          />
          <div className="grid grid-cols-2 gap-3">
            <TextField
              label={t('sandbox.expiry')}
              name="expiry"
              autoComplete="cc-exp"
              ref={expiryInput}
              value={expiry}
              onChange={(e) => setExpiry(e.target.value)}
              disabled={busy}
            />
            <TextField
              label={t('sandbox.cvc')}
              name="cvc"
              inputMode="numeric"
              autoComplete="cc-csc"
              ref={cvcInput}
              value={cvc}
              onChange={(e) => setCvc(e.target.value)}
              disabled={busy}
            />
          </div>
          <FormAlert message={error} />
          <Button type="submit" className="w-full" disabled={busy} data-testid="sandbox-pay">
            <CreditCard aria-hidden />
            {t('sandbox.pay', { amount: price })}
          </Button>
        </form>
      )}
    </div>
  );
}
