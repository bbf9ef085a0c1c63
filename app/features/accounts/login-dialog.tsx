import { useTranslation } from '../../i18n/translation.tsx';
import type { DeferredWidgetProps } from '../../ui/deferred.tsx';
import { DialogPanel } from '../../ui/dialog.tsx';
import { LoginList, type LoginMode } from './login-list.tsx';
import type { UserInfo } from './use-session.ts';

/** The header's login modal with the login list, loaded when wanted (header-account.tsx). */
export default function LoginDialog({
  open,
  onOpenChange,
  trigger,
  title,
  onDone,
}: DeferredWidgetProps & { title: string; onDone: (how: LoginMode, userInfo: UserInfo) => void }) {
  const { t } = useTranslation('accounts');
  return (
    <DialogPanel
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={t('header.dialogDescription')}
      closeLabel={t('header.close')}
      testId="login-dialog"
      trigger={trigger}
    >
      <LoginList onDone={onDone} />
    </DialogPanel>
  );
}
