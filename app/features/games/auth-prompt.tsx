import { useTranslation } from '../../i18n/translation.tsx';
import type { UserInfo } from '#common/api/accounts.schema.ts';
import { DialogPanel } from '../../ui/dialog.tsx';
import { LoginList } from '../accounts/login-list.tsx';

/**
 * `Playport.auth.prompt()` (SDK 1.1, decision 091): the portal's own sign-in list in a dialog on
 * the play page, for a guest. Any way in merges the guest into the account it reaches (decision
 * 084); closing the dialog is the game's `cancelled`.
 */
export function AuthPrompt({ onDone, onCancel }: { onDone: (userInfo: UserInfo) => void; onCancel: () => void }) {
  const { t } = useTranslation('errors');
  return (
    <DialogPanel
      open
      onOpenChange={(open) => !open && onCancel()}
      title={t('signInPrompt.title')}
      description={t('signInPrompt.body')}
      closeLabel={t('signInPrompt.close')}
      testId="game-sign-in"
    >
      <LoginList initialMode="sign-in" onDone={(_how, userInfo) => onDone(userInfo)} />
    </DialogPanel>
  );
}
