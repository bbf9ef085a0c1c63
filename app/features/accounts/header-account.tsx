import { LoaderCircle, LogIn, LogOut, Repeat } from 'lucide-react';
import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useMenuState } from '../../shell/use-menu-state.ts';
import { toast } from '../../shell/toast-store.ts';
import { Button } from '../../ui/button.tsx';
import { DialogPanel } from '../../ui/dialog.tsx';
import { displayName } from './display-name.ts';
import type { LoginMode } from './login-list.tsx';
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

// The login list (forms, their validation, passkeys, providers) is loaded when it is wanted: on the
// button's hover, focus or touch, or when the modal opens; never with the page (its first load).
const loadLoginList = () => import('./login-list.tsx');
const LoginList = lazy(async () => ({ default: (await loadLoginList()).LoginList }));
const preloadLoginList = () => void loadLoginList();

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
    <DialogPanel
      open={open}
      onOpenChange={setOpen}
      title={title}
      description={t('header.dialogDescription')}
      closeLabel={t('header.close')}
      testId="login-dialog"
      trigger={
        <Button
          variant={primary ? 'primary' : 'ghost'}
          size="sm"
          className="max-sm:size-9 max-sm:px-0"
          data-testid={testId}
          onPointerEnter={preloadLoginList}
          onFocus={preloadLoginList}
          onTouchStart={preloadLoginList}
        >
          {children}
        </Button>
      }
    >
      <Suspense fallback={<LoaderCircle className="mx-auto my-8 size-6 animate-spin text-green-600 motion-reduce:animate-none" aria-label={t('common:loading')} />}>
        <LoginList onDone={done} />
      </Suspense>
    </DialogPanel>
  );
}
