import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
  WebAuthnError,
} from '@simplewebauthn/browser';
import type { Translate } from '#common/i18n/translator.ts';
import type { UserInfo } from '#common/api/accounts.schema.ts';
import type { PasskeyCreated } from '#common/api/passkeys.schema.ts';
import { api, ApiError } from '../../lib/api-client.ts';
import { session } from '../accounts/session.ts';

/** Whether this browser can use passkeys at all (spec section 5). */
export function supportsPasskeys(): boolean {
  return typeof window !== 'undefined' && browserSupportsWebAuthn();
}

/** Whether it can offer passkeys in the username field's autofill (conditional mediation). */
export function supportsPasskeyAutofill(): Promise<boolean> {
  return typeof window === 'undefined' ? Promise.resolve(false) : browserSupportsWebAuthnAutofill();
}

/**
 * Registers a passkey for the signed-in account. The answer's token replaces the session's (the
 * server rotates it: a guest has just become a member).
 */
export async function createPasskey(): Promise<PasskeyCreated> {
  // A visitor on their first page may not have their guest session yet: the passkey is its.
  if (!session.snapshot().token) await session.signInAnonymously();
  const { data } = await api.get('/webauthn/create/options/');
  const response = await startRegistration({ optionsJSON: data.data as unknown as PublicKeyCredentialCreationOptionsJSON });
  const { data: created } = await api.post('/webauthn/create/verification/', { ...response, clientExtensionResults: { ...response.clientExtensionResults } });
  session.adoptRotated(created);
  return created;
}

/**
 * Signs in with a passkey the browser holds for this site: from a button, or (`autofill`) when
 * the visitor picks one in the username field's suggestions. Starting a ceremony aborts one that
 * is under way (the library keeps one at a time).
 */
export async function signInWithPasskey(options: { autofill?: boolean } = {}): Promise<UserInfo> {
  const { data } = await api.get('/webauthn/login/options/');
  const response = await startAuthentication({
    optionsJSON: data.data as unknown as PublicKeyCredentialRequestOptionsJSON,
    useBrowserAutofill: options.autofill ?? false,
  });
  const { data: signedIn } = await api.post('/webauthn/login/verification/', { ...response, clientExtensionResults: { ...response.clientExtensionResults } });
  return session.setToken(signedIn.token);
}

/** Ends a ceremony under way (the autofill one, when its field goes away). */
export function cancelPasskeyCeremony(): void {
  WebAuthnAbortService.cancelCeremony();
}

/** Whether an error is the abort of a ceremony this page replaced or cancelled: nothing to tell. */
export function isCeremonyAbort(error: unknown): boolean {
  return error instanceof WebAuthnError && error.code === 'ERROR_CEREMONY_ABORTED';
}

const CEREMONY_MESSAGES: Partial<Record<WebAuthnError['code'], string>> = {
  ERROR_CEREMONY_ABORTED: 'aborted',
  ERROR_INVALID_RP_ID: 'invalidRpId',
  ERROR_INVALID_DOMAIN: 'invalidDomain',
  ERROR_AUTHENTICATOR_GENERAL_ERROR: 'authenticatorError',
};

const REGISTRATION_MESSAGES: Partial<Record<WebAuthnError['code'], string>> = {
  ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT: 'noDiscoverable',
  ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT: 'userVerification',
  ERROR_AUTO_REGISTER_USER_VERIFICATION_FAILURE: 'userVerification',
  ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED: 'previouslyRegistered',
  ERROR_MALFORMED_PUBKEYCREDPARAMS: 'publicKeyParameters',
  ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG: 'noAlgorithm',
  ERROR_INVALID_USER_ID_LENGTH: 'userIdLength',
};

/**
 * What to tell the person about a failed passkey action (spec section 8): the server's message
 * when the server refused; the ceremony's own reason when the browser or authenticator stopped
 * it; otherwise the general passkey failure, as a warning.
 */
export function passkeyFailure(error: unknown, ceremony: 'registration' | 'authentication', t: Translate): { message: string; color: 'error' | 'warning' } {
  if (error instanceof ApiError && error.status > 0) return { message: error.message, color: 'error' };
  if (error instanceof WebAuthnError) {
    const key = CEREMONY_MESSAGES[error.code] ?? (ceremony === 'registration' ? REGISTRATION_MESSAGES[error.code] : undefined);
    if (key) return { message: t(`passkeys:ceremony.${key}`), color: 'warning' };
    // The browser's own words for a refusal it does not classify (NotAllowedError, usually).
    if (ceremony === 'registration' && error.code === 'ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY' && error.cause instanceof Error) {
      return { message: error.cause.message, color: 'warning' };
    }
  }
  if (error instanceof Error && error.message === 'Registration was not completed')
    return { message: t('passkeys:ceremony.registrationNotCompleted'), color: 'warning' };
  if (error instanceof Error && error.message === 'Authentication was not completed')
    return { message: t('passkeys:ceremony.authenticationNotCompleted'), color: 'warning' };
  return { message: t('passkeys:failed'), color: 'warning' };
}
