import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.ts';

const OLD = 'o'.repeat(40);
const NEW = 'n'.repeat(40);

// Game secrets at rest (decision 110): AES-256-GCM under APP_SECRET, still readable after its rotation.
describe('secret box', () => {
  it('seals so that only the same APP_SECRET and row open it', () => {
    const box = new SecretBox(OLD, [], 'game-secrets');
    const sealed = box.seal('pps_secret', '5:backend');
    expect(sealed).not.toContain('pps_secret');
    expect(sealed).not.toBe(box.seal('pps_secret', '5:backend'));
    expect(box.open(sealed, '5:backend')).toEqual({ plain: 'pps_secret', stale: false });
    // Another row's context, another APP_SECRET, or an altered byte: nothing.
    expect(box.open(sealed, '6:backend')).toBeNull();
    expect(new SecretBox(NEW, [], 'game-secrets').open(sealed, '5:backend')).toBeNull();
    const altered = `${sealed.slice(0, -2)}${sealed.at(-2) === 'A' ? 'B' : 'A'}${sealed.at(-1)}`;
    expect(box.open(altered, '5:backend')).toBeNull();
    expect(box.open('pps_secret', '5:backend')).toBeNull();
  });

  it('opens what the previous APP_SECRET sealed after a rotation, and says it is stale', () => {
    const sealed = new SecretBox(OLD, [], 'game-secrets').seal('whsec_x', '5:webhook');
    const rotated = new SecretBox(NEW, [OLD], 'game-secrets');
    expect(rotated.open(sealed, '5:webhook')).toEqual({ plain: 'whsec_x', stale: true });
    const again = rotated.seal('whsec_x', '5:webhook');
    expect(rotated.open(again, '5:webhook')).toEqual({ plain: 'whsec_x', stale: false });
    expect(new SecretBox(NEW, [], 'game-secrets').open(again, '5:webhook')).toEqual({ plain: 'whsec_x', stale: false });
  });
});
