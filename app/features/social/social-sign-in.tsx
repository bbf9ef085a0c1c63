import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { localePath } from '#common/locales.ts';
import type { UserInfo } from '#common/api/accounts.schema.ts';
import { PHONE_CODE_PATTERN } from '#common/api/social.schema.ts';
import { internationalPhone } from '#common/phone-numbers.ts';
import { isOAuthPlatform, type OAuthPlatform, type SocialPlatform } from '#common/social-platforms.ts';
import { confirm } from '../../shell/confirm-store.ts';
import { useRootData } from '../../shell/root-data.ts';
import { toast } from '../../shell/toast-store.ts';
import { Button } from '../../ui/button.tsx';
import { cn } from '../../ui/cn.ts';
import { focusRing } from '../../ui/focus.ts';
import { messageOf } from '../../ui/form-errors.ts';
import { FormAlert, LoadingOverlay, TextField } from '../../ui/form-field.tsx';
import { usePendingAction } from '../../ui/use-pending-action.ts';
import { useSession } from '../accounts/use-session.ts';
import { linkPageUrl, newFlowId, type OAuthMessageData, runOAuthPopup, saveSameTabFlow } from './oauth-popup.ts';
import { ProviderDeclined, type SocialCall, sendWhatsAppCode, submitSocialAnswer, unbindPlatform } from './social-session.ts';

type Run = (id: string, action: () => Promise<void>) => void;

/** The social platforms this portal offers (configured providers; WhatsApp when it has a sender). */
export function useSocialPlatforms(): SocialPlatform[] {
  return useRootData()?.socialPlatforms ?? [];
}

const MARKS: Record<SocialPlatform, { letter: string; className: string }> = {
  google: { letter: 'G', className: 'bg-white text-[#4285F4] ring-1 ring-zinc-300 dark:ring-zinc-600' },
  apple: { letter: 'A', className: 'bg-black text-white dark:bg-white dark:text-black' },
  discord: { letter: 'D', className: 'bg-[#5865F2] text-white' },
  facebook: { letter: 'f', className: 'bg-[#0866FF] text-white' },
  x: { letter: 'X', className: 'bg-black text-white dark:bg-white dark:text-black' },
  whatsapp: { letter: 'W', className: 'bg-[#25D366] text-white' },
};

/** The platform's brand colour and initial, drawn here (no outside icon service). */
function PlatformMark({ platform }: { platform: SocialPlatform }) {
  const mark = MARKS[platform];
  return (
    <span aria-hidden className={cn('grid size-5 shrink-0 place-items-center rounded-full text-xs font-bold', mark.className)}>
      {mark.letter}
    </span>
  );
}

/**
 * One pop-up flow for the login or link call (spec section 4): the window opens after 300 ms and is
 * polled every second; its answer is submitted and the session stored. A blocked pop-up is told
 * with a way on in this tab. Resolves when the flow is over, told or not.
 */
function useOAuthFlow(call: SocialCall, onDone: (userInfo: UserInfo, platform: SocialPlatform) => void) {
  const { t } = useTranslation('social');
  const [error, setError] = useState<string | null>(null);
  const [blocked, setBlocked] = useState<{ platform: OAuthPlatform; flow: string } | null>(null);
  const stops = useRef(new Set<() => void>());
  const done = useRef(onDone);
  useEffect(() => {
    done.current = onDone;
  });
  useEffect(() => {
    const running = stops.current;
    return () => running.forEach((stop) => stop());
  }, []);

  const submit = async (platform: OAuthPlatform, answer: OAuthMessageData) => {
    try {
      const { userInfo } = await submitSocialAnswer(call, platform, answer);
      done.current(userInfo, platform);
    } catch (failure) {
      setError(failure instanceof ProviderDeclined ? t('popup.cancelled', { platform: t(`platforms.${platform}`) }) : messageOf(failure, t('errors:generic')));
    }
  };

  const start = (platform: OAuthPlatform) =>
    new Promise<void>((resolve) => {
      setError(null);
      setBlocked(null);
      const flow = newFlowId();
      const stop = runOAuthPopup(platform, flow, {
        // An answer after the window looked closed (a provider cut the opener) is still taken.
        onAnswer: (answer) => void submit(platform, answer).finally(resolve),
        onBlocked: () => {
          setBlocked({ platform, flow });
          resolve();
        },
        onClosed: resolve,
      });
      stops.current.add(stop);
    });

  const continueHere = () => {
    if (!blocked) return;
    saveSameTabFlow({ ...blocked, kind: call, returnTo: `${window.location.pathname}${window.location.search}` });
    window.location.assign(linkPageUrl(blocked.platform, blocked.flow));
  };

  const alert = blocked ? (
    <div className="space-y-2" data-testid="popup-blocked">
      <FormAlert message={t('popup.blocked')} />
      <Button variant="secondary" size="sm" className="w-full" onClick={continueHere}>
        {t('popup.openHere')}
      </Button>
    </div>
  ) : (
    <FormAlert message={error} />
  );
  return { start, alert };
}

interface ListProps {
  run: Run;
  busy: boolean;
  onDone: (userInfo: UserInfo) => void;
}

/** The social part of the login list: a button per provider, and WhatsApp's number and code. */
export function SocialSignIn({ run, busy, onDone }: ListProps) {
  const { t } = useTranslation('social');
  const platforms = useSocialPlatforms();
  const [whatsapp, setWhatsapp] = useState(false);
  // Success is told by the login list's owner, as for every way in (one toast, decision 117).
  const { start, alert } = useOAuthFlow('login', (userInfo) => onDone(userInfo));
  if (platforms.length === 0) return null;
  return (
    <div className="mt-5 space-y-2" data-testid="social-sign-in">
      {platforms.map((platform) =>
        isOAuthPlatform(platform) ? (
          <Button
            key={platform}
            variant="secondary"
            className="w-full"
            disabled={busy}
            onClick={() => run(`social-${platform}`, () => start(platform))}
            data-testid={`social-login-${platform}`}
          >
            <PlatformMark platform={platform} />
            {t('login.with', { platform: t(`platforms.${platform}`) })}
          </Button>
        ) : (
          <div key={platform} className="space-y-2">
            <Button
              variant="secondary"
              className="w-full"
              disabled={busy}
              aria-expanded={whatsapp}
              onClick={() => setWhatsapp((open) => !open)}
              data-testid="social-login-whatsapp"
            >
              <PlatformMark platform={platform} />
              {t('login.with', { platform: t(`platforms.${platform}`) })}
            </Button>
            {whatsapp && <WhatsAppCodeForm call="login" run={run} busy={busy} onDone={onDone} />}
          </div>
        ),
      )}
      {alert}
    </div>
  );
}

/**
 * WhatsApp by code (decision 063): the number, a 6-digit code sent to it, then the login or link
 * call with both. The code is the proof the number is the person's, also before it is bound.
 */
function WhatsAppCodeForm({ call, run, busy, onDone }: ListProps & { call: SocialCall }) {
  const { t } = useTranslation('social');
  const locale = useLocale();
  const [phone, setPhone] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (sentTo && !busy) codeRef.current?.focus();
  }, [sentTo, busy]);

  const send = (event?: FormEvent) => {
    event?.preventDefault();
    if (!/\d{6,}/.test(phone.replace(/\D/g, ''))) {
      setError(t('whatsapp.phoneMissing'));
      return;
    }
    // On a Chinese page a mainland mobile number needs no +86 (decision 117); the code says where it went.
    const number = internationalPhone(phone.trim(), locale);
    run('whatsapp-send', async () => {
      setError(null);
      try {
        await sendWhatsAppCode(number);
        setSentTo(number);
        setCode('');
      } catch (failure) {
        setError(messageOf(failure, t('errors:generic')));
      }
    });
  };

  const verify = (event: FormEvent) => {
    event.preventDefault();
    if (!PHONE_CODE_PATTERN.test(code.trim())) {
      setError(t('whatsapp.codeMissing'));
      return;
    }
    run('whatsapp-verify', async () => {
      setError(null);
      try {
        const { userInfo } = await submitSocialAnswer(call, 'whatsapp', { phone: sentTo!, code: code.trim() });
        onDone(userInfo);
      } catch (failure) {
        setError(messageOf(failure, t('errors:generic')));
        setCode('');
      }
    });
  };

  return sentTo === null ? (
    <form onSubmit={send} noValidate className="space-y-3 rounded-lg border border-zinc-200 p-3 dark:border-zinc-800" data-testid="whatsapp-phone-form">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('whatsapp.intro')}</p>
      <TextField
        label={t('whatsapp.phone')}
        hint={t('whatsapp.phoneHint')}
        name="phone"
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        value={phone}
        onChange={(e) => setPhone(e.target.value)}
        disabled={busy}
      />
      <FormAlert message={error} />
      <Button type="submit" className="w-full" disabled={busy} data-testid="whatsapp-send">
        {t('whatsapp.send')}
      </Button>
    </form>
  ) : (
    <form onSubmit={verify} noValidate className="space-y-3 rounded-lg border border-zinc-200 p-3 dark:border-zinc-800" data-testid="whatsapp-code-form">
      <output className="block text-sm text-zinc-600 dark:text-zinc-400">{t('whatsapp.sent', { phone: sentTo })}</output>
      <TextField
        ref={codeRef}
        label={t('whatsapp.code')}
        name="code"
        autoComplete="one-time-code"
        inputMode="numeric"
        pattern="[0-9]*"
        maxLength={6}
        value={code}
        onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
        disabled={busy}
      />
      <FormAlert message={error} />
      <Button type="submit" className="w-full" disabled={busy} data-testid="whatsapp-verify">
        {call === 'login' ? t('whatsapp.signIn') : t('whatsapp.link')}
      </Button>
      <div className="flex justify-between gap-2 text-sm">
        <Button type="button" variant="ghost" size="sm" disabled={busy} onClick={() => send()}>
          {t('whatsapp.resend')}
        </Button>
        <Button type="button" variant="ghost" size="sm" disabled={busy} onClick={() => setSentTo(null)}>
          {t('whatsapp.changeNumber')}
        </Button>
      </div>
    </form>
  );
}

/**
 * The bind list on /user/profile/social (spec section 4): link or unlink each platform, then
 * `children` (the passkey row). Unlinking asks first, naming the platform; one action at a time,
 * under a loading overlay.
 */
export function SocialBindList({ hasPassword, children }: { hasPassword: boolean; children?: ReactNode }) {
  const { t } = useTranslation('social');
  const platforms = useSocialPlatforms();
  const { userInfo } = useSession();
  // The server refuses to unlink the last way in (409); the list says so before anyone asks.
  const onlyWayIn = !hasPassword && !userInfo?.webauthn && userInfo?.social_providers.length === 1;
  const locale = useLocale();
  const { pending, run } = usePendingAction();
  const [whatsapp, setWhatsapp] = useState(false);
  const busy = pending !== null;
  const linked = (platform: SocialPlatform) => toast.add({ title: t('bind.bound', { platform: t(`platforms.${platform}`) }), color: 'success' });
  const { start, alert } = useOAuthFlow('link', (_userInfo, platform) => linked(platform));

  const unbind = (platform: SocialPlatform) =>
    run(`unbind-${platform}`, async () => {
      const name = t(`platforms.${platform}`);
      const confirmed = await confirm({
        title: t('bind.confirmTitle', { platform: name }),
        message: t('bind.confirmBody', { platform: name }),
        confirmButton: t('bind.confirmAction'),
        cancelButton: t('bind.cancel'),
        color: 'warning',
        icon: 'warning',
        type: 'warning',
      });
      if (!confirmed) return;
      try {
        await unbindPlatform(platform);
        toast.add({ title: t('bind.unbound', { platform: name }), color: 'success' });
      } catch (failure) {
        toast.add({ title: messageOf(failure, t('errors:generic')), color: 'error' });
      }
    });

  return (
    <div className="relative space-y-3">
      <ul
        className="divide-y divide-zinc-200 overflow-hidden rounded-xl border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
        data-testid="bind-list"
      >
        {platforms.map((platform) => {
          const bound = userInfo?.social_providers.includes(platform) ?? false;
          const last = bound && onlyWayIn;
          return (
            <li key={platform} className="relative px-4 py-3" data-testid={`bind-${platform}`} data-bound={bound}>
              <div className="flex items-center gap-3">
                <PlatformMark platform={platform} />
                <span className="flex-1">
                  <span className="block font-medium">{t(`platforms.${platform}`)}</span>
                  <span className="block text-xs text-zinc-500 dark:text-zinc-400">{bound ? t('bind.linked') : t('bind.notLinked')}</span>
                </span>
                {bound ? (
                  <Button
                    size="sm"
                    variant="secondary"
                    disabled={busy || last}
                    aria-describedby={last ? `last-way-${platform}` : undefined}
                    onClick={() => unbind(platform)}
                    data-testid={`unbind-${platform}`}
                  >
                    {t('bind.unbind')}
                  </Button>
                ) : (
                  <Button
                    size="sm"
                    disabled={busy}
                    onClick={() => (isOAuthPlatform(platform) ? run(`bind-${platform}`, () => start(platform)) : setWhatsapp((open) => !open))}
                    data-testid={`bind-${platform}-button`}
                  >
                    {t('bind.bind')}
                  </Button>
                )}
              </div>
              {last && (
                <p id={`last-way-${platform}`} className="mt-2 text-xs text-zinc-600 dark:text-zinc-400" data-testid="last-way-in">
                  {t('errors.lastSignIn', { platform: t(`platforms.${platform}`) })}{' '}
                  <Link
                    to={localePath(locale, '/user/profile/password')}
                    className={cn('text-green-700 underline underline-offset-2 dark:text-green-400', focusRing)}
                  >
                    {t('bind.setPassword')}
                  </Link>
                </p>
              )}
              {platform === 'whatsapp' && whatsapp && !bound && (
                <div className="mt-3">
                  <WhatsAppCodeForm
                    call="link"
                    run={run}
                    busy={busy}
                    onDone={() => {
                      setWhatsapp(false);
                      linked('whatsapp');
                    }}
                  />
                </div>
              )}
            </li>
          );
        })}
        {children}
      </ul>
      {alert}
      <LoadingOverlay show={busy} />
    </div>
  );
}
