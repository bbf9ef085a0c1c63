import { KeyRound } from 'lucide-react';
import { useEffect, useEffectEvent } from 'react';
import { useTranslation } from '../../i18n/translation.tsx';
import type { UserInfo } from '#common/api/accounts.schema.ts';
import { toast } from '../../shell/toast-store.ts';
import { useBrowserCapability } from '../../lib/use-browser-capability.ts';
import { Button } from '../../ui/button.tsx';
import {
  cancelPasskeyCeremony,
  createPasskey,
  isCeremonyAbort,
  passkeyFailure,
  signInWithPasskey,
  supportsPasskeyAutofill,
  supportsPasskeys,
} from './passkey-ceremonies.ts';

/** Whether passkeys work here; false on the server and until the page has hydrated. */
export function usePasskeySupport(): boolean {
  return useBrowserCapability(supportsPasskeys);
}

interface LoginActionProps {
  run: (id: string, action: () => Promise<void>) => void;
  busy: boolean;
  onDone: (userInfo: UserInfo) => void;
}

/** The two passkey actions of the login list. */
const ACTIONS = {
  'sign-in': { ceremony: 'authentication', label: 'signIn', testId: 'passkey-sign-in', perform: () => signInWithPasskey() },
  create: {
    ceremony: 'registration',
    label: 'createAccount',
    testId: 'passkey-create-account',
    perform: async () => (await createPasskey()).userInfo,
  },
} as const;

/**
 * A passkey button of the login list (spec section 4), shown only where the browser supports
 * WebAuthn: "sign-in" runs a ceremony and keeps the token; "create" gives the guest's account a
 * passkey instead of a username and password, and the guest becomes a member in place (its
 * games stay) on a new session. Success is told by the list's owner, as for every way in
 * (one toast, decision 117); a failure is told here.
 */
export function PasskeyLoginButton({ action, run, busy, onDone }: LoginActionProps & { action: keyof typeof ACTIONS }) {
  const { t } = useTranslation('passkeys');
  const supported = usePasskeySupport();
  if (!supported) return null;
  const { ceremony, label, testId, perform } = ACTIONS[action];
  const start = () =>
    run(testId, async () => {
      try {
        onDone(await perform());
      } catch (failure) {
        const { message, color } = passkeyFailure(failure, ceremony, t);
        toast.add({ title: message, color });
      }
    });
  return (
    <Button variant="secondary" className="mt-3 w-full" onClick={start} disabled={busy} data-testid={testId}>
      <KeyRound aria-hidden />
      {t(label)}
    </Button>
  );
}

/**
 * Autofill sign-in (conditional mediation): while the login form is shown to a visitor who is not
 * signed in as a member, the browser offers the passkeys it holds in the username field's
 * suggestions; picking one signs in (told by the list's owner). The field needs
 * `autocomplete="username webauthn"`. One ceremony per form: a button ceremony replaces it,
 * leaving the form ends it, a failure is told once and not retried.
 */
export function usePasskeyAutofill(enabled: boolean, onDone: (userInfo: UserInfo) => void): void {
  const { t } = useTranslation('passkeys');
  const succeeded = useEffectEvent((userInfo: UserInfo) => onDone(userInfo));
  const failed = useEffectEvent((failure: unknown) => {
    const { message, color } = passkeyFailure(failure, 'authentication', t);
    toast.add({ title: message, color });
  });
  useEffect(() => {
    if (!enabled) return;
    let active = true;
    void (async () => {
      if (!(await supportsPasskeyAutofill()) || !active) return;
      try {
        // Told even when the form has just gone: signing in turns the visitor into a member,
        // which itself ends the autofill (it is for visitors), but the person picked a passkey here.
        succeeded(await signInWithPasskey({ autofill: true }));
      } catch (failure) {
        // Replaced by a button ceremony, or the form went away: nothing happened that needs telling.
        if (active && !isCeremonyAbort(failure)) failed(failure);
      }
    })();
    return () => {
      active = false;
      cancelPasskeyCeremony();
    };
  }, [enabled]);
}
