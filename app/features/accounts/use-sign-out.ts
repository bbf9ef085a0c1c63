import { useTranslation } from '../../i18n/translation.tsx';
import { toast } from '../../shell/toast-store.ts';
import { messageOf } from '../../lib/failure-message.ts';
import { session } from './session.ts';
import { usePendingAction } from '../../ui/use-pending-action.ts';

/**
 * Signing out, wherever the button is: one action at a time, a toast either way, then `after`
 * (a page that only members see leaves for one everybody sees).
 */
export function useSignOut(after?: () => Promise<void> | void) {
  const { t } = useTranslation('accounts');
  const { pending, run } = usePendingAction();
  const signOut = () =>
    run('logout', async () => {
      try {
        await session.logout();
        toast.add({ title: t('header.signedOut'), color: 'success' });
      } catch (error) {
        toast.add({ title: messageOf(error, t('errors:generic')), color: 'error' });
      }
      await after?.();
    });
  return { signingOut: pending !== null, signOut };
}
