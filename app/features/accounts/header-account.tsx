import { LogIn, LogOut, Repeat, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useMenuState } from '../../shell/use-menu-state.ts';
import { toast } from '../../shell/toast-store.ts';
import { Button } from '../../ui/button.tsx';
import { cn } from '../../ui/cn.ts';
import { focusRing } from '../../ui/focus.ts';
import { displayName } from './display-name.ts';
import { type LoginMode, LoginList } from './login-list.tsx';
import { useSession } from './use-session.ts';
import { useSignOut } from './use-sign-out.ts';

/**
 * The header's account button (spec section 4). Logged out (no member session: a visitor or a
 * guest, decision 026), a one-tap sign-in button opens the login list. Logged in, sign-out
 * appears when a social account or passkey is bound; otherwise switch account opens a modal
 * with the login list.
 */
export function HeaderAccount() {
  const { t } = useTranslation('accounts');
  const { isMember, userInfo } = useSession();
  if (isMember && userInfo && (userInfo.social_providers.length > 0 || userInfo.webauthn)) return <SignOutButton />;
  return isMember ? (
    <LoginDialog title={t('header.switchTitle')} testId="header-switch-account">
      <Repeat aria-hidden />
      <span className="sr-only sm:not-sr-only">{t('header.switchAccount')}</span>
    </LoginDialog>
  ) : (
    <LoginDialog title={t('header.signInTitle')} testId="header-sign-in" primary>
      <LogIn aria-hidden />
      <span className="sr-only sm:not-sr-only">{t('header.signIn')}</span>
    </LoginDialog>
  );
}

function SignOutButton() {
  const { t } = useTranslation('accounts');
  const { signingOut, signOut } = useSignOut();
  return (
    <Button variant="ghost" size="sm" onClick={signOut} disabled={signingOut} data-testid="header-sign-out">
      <LogOut aria-hidden />
      <span className="sr-only sm:not-sr-only">{t('header.signOut')}</span>
    </Button>
  );
}

/** A button that opens the login list in a modal; the modal closes once someone signs in, and on navigation. */
function LoginDialog({ title, testId, primary = false, children }: { title: string; testId: string; primary?: boolean; children: ReactNode }) {
  const { t } = useTranslation('accounts');
  const [open, setOpen] = useMenuState();
  const done = (how: LoginMode, userInfo: Parameters<typeof displayName>[0]) => {
    setOpen(false);
    const name = displayName(userInfo, t);
    toast.add({ title: how === 'create' ? t('login.created', { name }) : t('login.signedIn', { name }), color: 'success' });
  };
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <Button variant={primary ? 'primary' : 'ghost'} size="sm" className="max-sm:size-9 max-sm:px-0" data-testid={testId}>
          {children}
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-zinc-950/50 backdrop-blur-[2px] data-[state=closed]:animate-fade-out data-[state=open]:animate-fade-in motion-reduce:animate-none" />
        <Dialog.Content
          data-testid="login-dialog"
          className={cn(
            'fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl border border-zinc-200 bg-white p-5 text-zinc-900 shadow-xl sm:p-6',
            'dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100',
            'data-[state=closed]:animate-fade-out data-[state=open]:animate-dialog-in motion-reduce:animate-none',
          )}
        >
          <div className="mb-5 flex items-start justify-between gap-4">
            <div>
              <Dialog.Title className="text-lg font-semibold">{title}</Dialog.Title>
              <Dialog.Description className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('header.dialogDescription')}</Dialog.Description>
            </div>
            <Dialog.Close
              aria-label={t('header.close')}
              className={cn('-mt-1 -mr-1 shrink-0 cursor-pointer rounded-md p-1.5 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 dark:hover:bg-zinc-800 dark:hover:text-zinc-100', focusRing)}
            >
              <X className="size-5" aria-hidden />
            </Dialog.Close>
          </div>
          <LoginList onDone={done} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
