import { WebAuthnError } from '@simplewebauthn/browser';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '#common/i18n/resources.ts';
import { createTranslator } from '#common/i18n/translator.ts';
import { ApiError } from '../../lib/api-client.ts';
import { passkeyFailure } from './passkey-ceremonies.ts';

/** The English texts. */
const { t } = createTranslator('en', MESSAGES.en);

const ceremonyError = (code: WebAuthnError['code'], cause?: Error) => new WebAuthnError({ message: 'x', code, cause: cause ?? new Error('x') });

describe('passkeyFailure (spec section 8)', () => {
  it('shows the server’s message when the server refused', () => {
    expect(passkeyFailure(new ApiError(409, 'This passkey is registered already.'), 'registration', t)).toEqual({
      message: 'This passkey is registered already.',
      color: 'error',
    });
  });

  it('names the ceremony errors of both ceremonies', () => {
    expect(passkeyFailure(ceremonyError('ERROR_CEREMONY_ABORTED'), 'authentication', t).message).toBe('Authentication ceremony was sent an abort signal');
    expect(passkeyFailure(ceremonyError('ERROR_INVALID_RP_ID'), 'authentication', t).message).toMatch(/relying party ID/);
    expect(passkeyFailure(ceremonyError('ERROR_INVALID_DOMAIN'), 'registration', t).message).toMatch(/invalid domain/);
    expect(passkeyFailure(ceremonyError('ERROR_AUTHENTICATOR_GENERAL_ERROR'), 'registration', t).message).toBe('The authenticator reported an error');
    expect(passkeyFailure(new Error('Registration was not completed'), 'registration', t)).toEqual({
      message: 'Registration was not completed',
      color: 'warning',
    });
    expect(passkeyFailure(new Error('Authentication was not completed'), 'authentication', t).message).toBe('Authentication was not completed');
  });

  it('names the registration-only errors, and passes the browser’s refusal through', () => {
    expect(passkeyFailure(ceremonyError('ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT'), 'registration', t).message).toBe(
      'This authenticator cannot keep a passkey',
    );
    expect(passkeyFailure(ceremonyError('ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT'), 'registration', t).message).toBe(
      'This authenticator cannot verify you',
    );
    expect(passkeyFailure(ceremonyError('ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED'), 'registration', t).message).toMatch(/already holds a passkey/);
    expect(passkeyFailure(ceremonyError('ERROR_MALFORMED_PUBKEYCREDPARAMS'), 'registration', t).message).toBe('The passkey request was malformed');
    expect(passkeyFailure(ceremonyError('ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG'), 'registration', t).message).toMatch(
      /none of the requested algorithms/,
    );
    expect(passkeyFailure(ceremonyError('ERROR_INVALID_USER_ID_LENGTH'), 'registration', t).message).toMatch(/1 and 64 bytes/);
    const notAllowed = Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' });
    expect(passkeyFailure(ceremonyError('ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY', notAllowed), 'registration', t).message).toBe(
      'The operation either timed out or was not allowed.',
    );
  });

  it('falls back to the general passkey failure, as a warning', () => {
    expect(passkeyFailure(ceremonyError('ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED'), 'authentication', t)).toEqual({
      message: 'The passkey did not work. Please try again.',
      color: 'warning',
    });
    expect(passkeyFailure(new TypeError('network'), 'authentication', t).color).toBe('warning');
  });
});
