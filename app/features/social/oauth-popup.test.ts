import { describe, expect, it } from 'vitest';
import { FLOW_ID_PATTERN } from '#common/social-platforms.ts';
import { isAnswer, linkPageUrl, newFlowId, popupFeatures } from './oauth-popup.ts';

describe('the pop-up flow', () => {
  it('opens a 960x600 window centred on the current one', () => {
    expect(popupFeatures({ screenX: 100, screenY: 50, outerWidth: 1400, outerHeight: 900, availWidth: 1920, availHeight: 1080 })).toBe(
      'popup=yes,width=960,height=600,left=320,top=200',
    );
  });

  it('fits a smaller screen', () => {
    expect(popupFeatures({ screenX: 0, screenY: 0, outerWidth: 390, outerHeight: 844, availWidth: 390, availHeight: 844 })).toBe(
      'popup=yes,width=390,height=600,left=0,top=122',
    );
  });

  it('makes flow ids the server accepts, each new', () => {
    const ids = new Set(Array.from({ length: 50 }, newFlowId));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(FLOW_ID_PATTERN);
    expect(linkPageUrl('google', 'abc')).toBe('/oauth/google/link?flow=abc');
  });

  describe('takes only the answer to its own flow from its own origin', () => {
    const expected = { origin: 'https://play.example', platform: 'google', flow: 'flow-1234567890123456789' };
    const answer = { action: 'oauth', data: { platform: 'google', flow: expected.flow, code: 'c', state: 's' } };

    it('takes it', () => {
      expect(isAnswer(answer, 'https://play.example', expected)).toBe(true);
    });

    it('refuses another origin, another flow, another platform or another action', () => {
      expect(isAnswer(answer, 'https://evil.example', expected)).toBe(false);
      expect(isAnswer(answer, 'http://play.example', expected)).toBe(false);
      expect(isAnswer({ ...answer, data: { ...answer.data, flow: 'other-flow-12345678901' } }, expected.origin, expected)).toBe(false);
      expect(isAnswer({ ...answer, data: { ...answer.data, platform: 'discord' } }, expected.origin, expected)).toBe(false);
      expect(isAnswer({ ...answer, action: 'other' }, expected.origin, expected)).toBe(false);
      expect(isAnswer(null, expected.origin, expected)).toBe(false);
      expect(isAnswer('oauth', expected.origin, expected)).toBe(false);
    });
  });
});
