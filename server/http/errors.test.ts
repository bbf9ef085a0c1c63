import { describe, expect, it } from 'vitest';
import { ERROR_CODES, REFUSAL_REASONS, type RefusalReason } from '#common/api/error-codes.ts';
import { AppError, MESSAGE_KEY, refusal } from '../lib/app-error.ts';
import { codeForStatus, errorEnvelope, statusOf } from './errors.ts';

describe('error codes at the edge', () => {
  it('gives every code one client or server error status and a default message', () => {
    for (const code of ERROR_CODES) {
      expect(statusOf(code), code).toBeGreaterThanOrEqual(400);
      expect(statusOf(code), code).toBeLessThan(600);
      expect(MESSAGE_KEY[code], code).toMatch(/^[a-z]+:\S+$/);
    }
  });

  it('tells apart the cases callers need, each with the status it always had', () => {
    expect(statusOf('account_not_secured')).toBe(403);
    expect(statusOf('credentials_invalid')).toBe(401);
    expect(statusOf('username_taken')).toBe(422);
    expect(statusOf('save_too_large')).toBe(413);
    expect(statusOf('saves_full')).toBe(413);
    expect(statusOf('rate_limited')).toBe(429);
  });

  it('keeps the spec’s envelope and adds the domain code', () => {
    const envelope = errorEnvelope(new AppError('account_not_secured'), 'en');
    expect(envelope).toEqual({ code: 403, error: 'account_not_secured', message: expect.stringMatching(/^Secure your account first/), data: null });
    const field = errorEnvelope(new AppError('username_taken', { fields: { username: ['accounts:username.taken'] } }), 'en');
    expect(field).toMatchObject({ code: 422, error: 'username_taken', data: { errors: { username: [expect.any(String)] } } });
  });

  it('gives the framework’s own refusals the generic code of their status', () => {
    expect(codeForStatus(400)).toBe('bad_request');
    expect(codeForStatus(403)).toBe('forbidden');
    expect(codeForStatus(404)).toBe('not_found');
    expect(codeForStatus(413)).toBe('payload_too_large');
    expect(codeForStatus(415)).toBe('unsupported_media_type');
    expect(codeForStatus(418)).toBe('bad_request');
    expect(codeForStatus(502)).toBe('internal');
  });

  it('adds a feature’s reason beside the code it refines, with that code’s status and the message clients always had', () => {
    for (const reason of Object.keys(REFUSAL_REASONS) as RefusalReason[]) {
      const error = refusal(reason);
      expect(error.code, reason).toBe(REFUSAL_REASONS[reason]);
      expect(error.message, reason).toMatch(/^[a-z]+:\S+$/);
      expect(errorEnvelope(error, 'en'), reason).toMatchObject({ code: statusOf(REFUSAL_REASONS[reason]), error: REFUSAL_REASONS[reason], reason });
    }
    const thumbnail = errorEnvelope(refusal('build_needs_thumbnail'), 'en');
    expect(thumbnail).toEqual({ code: 409, error: 'conflict', reason: 'build_needs_thumbnail', message: expect.any(String), data: null });
    expect(thumbnail.message).toBe(errorEnvelope(new AppError('conflict', { messageKey: 'studio:builds.errors.needsThumbnail' }), 'en').message);
    const url = errorEnvelope(refusal('webhook_url_refused', { fields: { url: ['studio:webhooks.errors.scheme'] }, data: { reason: 'scheme' } }), 'en');
    expect(url).toMatchObject({
      code: 422,
      error: 'validation',
      reason: 'webhook_url_refused',
      data: { reason: 'scheme', errors: { url: [expect.any(String)] } },
    });
    // A refusal without a reason keeps the envelope it had: no `reason` field.
    expect(errorEnvelope(new AppError('conflict'), 'en')).not.toHaveProperty('reason');
  });
});
