import { LogIn, LogOut, Repeat } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n/translation.tsx';
import { useMenuState } from '../../shell/use-menu-state.ts';
import { toast } from '../../shell/toast-store.ts';
import { Button } from '../../ui/button.tsx';
import { deferred } from '../../ui/deferred.tsx';
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
  const { isSignedIn, isMember, userInfo } = useSession();
  // Before the page knows its account, all three are there and the account hint (account-hint.ts)
  // shows one, so a returning member's header does not change once the account is known. Each
  // keeps its place in the tree: a sign-in dialog opened meanwhile stays open.
  const known = isSignedIn ? (isMember ? (userInfo!.social_providers.length > 0 || userInfo!.webauthn ? 'signout' : 'switch') : 'signin') : null;
  return (
    <>
      <span className={known ? 'contents' : 'contents [[data-account]_&]:hidden'}>{(!known || known === 'signin') && <SignInButton />}</span>
      <span className={known ? 'contents' : 'hidden [[data-account=member]_&]:contents'}>{(!known || known === 'switch') && <SwitchAccountButton />}</span>
      <span className={known ? 'contents' : 'hidden [[data-account~=signout]_&]:contents'}>{(!known || known === 'signout') && <SignOutButton />}</span>
    </>
  );
}

function SignInButton() {
  const { t } = useTranslation('accounts');
  return (
    <LoginDialog title={t('header.signInTitle')} testId="header-sign-in" primary>
      <LogIn aria-hidden />
      <span className="sr-only sm:not-sr-only">{t('header.signIn')}</span>
    </LoginDialog>
  );
}

function SwitchAccountButton() {
  const { t } = useTranslation('accounts');
  return (
    <LoginDialog title={t('header.switchTitle')} testId="header-switch-account">
      <Repeat aria-hidden />
      <span className="sr-only sm:not-sr-only">{t('header.switchAccount')}</span>
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

// The login modal and its list (forms, their validation, passkeys, providers) load when wanted: on
// the button's hover, focus or touch, or when it is pressed; never with the page (its first load).
const LoginDialogPanel = deferred(async () => (await import('./login-dialog.tsx')).default);

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
    <LoginDialogPanel
      open={open}
      onOpenChange={setOpen}
      title={title}
      onDone={done}
      trigger={
        <Button
          variant={primary ? 'primary' : 'ghost'}
          size="sm"
          className="max-sm:size-9 max-sm:px-0"
          aria-haspopup="dialog"
          aria-expanded={open}
          data-testid={testId}
        >
          {children}
        </Button>
      }
    />
  );
}
