import { type FormEvent, useState } from 'react';
import { useTranslation } from '../../i18n/translation.tsx';
import { Button } from '../../ui/button.tsx';
import { DialogPanel } from '../../ui/dialog.tsx';
import { useFormErrors } from '../../ui/form-errors.ts';
import { FormAlert, LoadingOverlay, TextField } from '../../ui/form-field.tsx';
import { majorUnitsText, toMinorUnits } from '#common/money.ts';

/**
 * Asks for the reason of an operator's action (a refund, disabling an account) and runs it: the
 * server's refusal shows in the dialog, which stays open until the action is done; after a refusal
 * focus goes to the reason or the message (decision 121).
 */
export function ReasonDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  testId,
  destructive = false,
  amount,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  testId: string;
  destructive?: boolean;
  /** A refund's amount (decision 124): what is left of the order, which the operator may lower; `onConfirm` gets minor units below it, else undefined (all of it). */
  amount?: { left: number; currency: string };
  onConfirm: (reason: string, amount?: number) => Promise<void>;
}) {
  const { t } = useTranslation('console');
  const [reason, setReason] = useState('');
  const [amountText, setAmountText] = useState(amount ? majorUnitsText(amount.left, amount.currency) : '');
  const { errors, alert, check, fail, formRef } = useFormErrors();
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    let minor: number | undefined;
    if (amount) {
      const parsed = toMinorUnits(amountText.trim(), amount.currency);
      if (parsed === null || parsed < 1 || parsed > amount.left)
        found.amount = t('ops.orders.amountRule', { left: majorUnitsText(amount.left, amount.currency), currency: amount.currency });
      else minor = parsed < amount.left ? parsed : undefined;
    }
    if (reason.trim().length < 3) found.reason = t('ops.errors.reasonShort');
    if (!check(found)) return;
    setPending(true);
    try {
      await onConfirm(reason.trim(), minor);
      setReason('');
      onOpenChange(false);
    } catch (failure) {
      fail(failure, amount ? ['reason', 'amount'] : ['reason']);
    } finally {
      setPending(false);
    }
  };

  return (
    <DialogPanel open={open} onOpenChange={onOpenChange} title={title} description={description} closeLabel={t('ops.orders.close')} testId={testId}>
      <form ref={formRef} onSubmit={submit} noValidate className="relative space-y-4">
        <TextField
          label={t('ops.orders.reason')}
          hint={t('ops.orders.reasonHint')}
          name="reason"
          value={reason}
          maxLength={500}
          autoComplete="off"
          onChange={(e) => setReason(e.target.value)}
          disabled={pending}
          error={errors.reason}
          data-testid="reason-input"
        />
        {amount && (
          <TextField
            label={t('ops.orders.refundAmount', { currency: amount.currency })}
            hint={t('ops.orders.refundAmountHint')}
            name="amount"
            inputMode="decimal"
            value={amountText}
            autoComplete="off"
            onChange={(e) => setAmountText(e.target.value)}
            error={errors.amount}
            disabled={pending}
            data-testid="refund-amount"
          />
        )}
        <FormAlert message={alert} />
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={pending}>
            {t('ops.orders.cancel')}
          </Button>
          <Button type="submit" variant={destructive ? 'danger' : 'primary'} disabled={pending} data-testid="reason-confirm">
            {confirmLabel}
          </Button>
        </div>
        <LoadingOverlay show={pending} />
      </form>
    </DialogPanel>
  );
}
