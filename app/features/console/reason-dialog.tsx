import { type FormEvent, useState } from 'react';
import { useTranslation } from '../../i18n/translation.tsx';
import { Button } from '../../ui/button.tsx';
import { DialogPanel } from '../../ui/dialog.tsx';
import { FormAlert, LoadingOverlay, TextField } from '../accounts/form-field.tsx';
import { failureText } from './console-format.ts';

/**
 * Asks for the reason of an operator's action (a refund, disabling an account) and runs it: the
 * server's refusal shows in the dialog, which stays open until the action is done.
 */
export function ReasonDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  testId,
  destructive = false,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  testId: string;
  destructive?: boolean;
  onConfirm: (reason: string) => Promise<void>;
}) {
  const { t } = useTranslation('console');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim().length < 3) {
      setError(t('ops.errors.reasonShort'));
      return;
    }
    setPending(true);
    setError(null);
    try {
      await onConfirm(reason.trim());
      setReason('');
      onOpenChange(false);
    } catch (failure) {
      setError(failureText(failure, 'reason', t('ops.loadFailed')));
    } finally {
      setPending(false);
    }
  };

  return (
    <DialogPanel open={open} onOpenChange={onOpenChange} title={title} description={description} closeLabel={t('ops.orders.close')} testId={testId}>
      <form onSubmit={submit} noValidate className="relative space-y-4">
        <TextField
          label={t('ops.orders.reason')}
          hint={t('ops.orders.reasonHint')}
          name="reason"
          value={reason}
          maxLength={500}
          autoComplete="off"
          onChange={(e) => setReason(e.target.value)}
          disabled={pending}
          data-testid="reason-input"
        />
        <FormAlert message={error} />
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
