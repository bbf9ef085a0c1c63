import { describe, expect, it } from 'vitest';
import type { Caller } from './caller.ts';
import { type PreviewCheck, publishedOrPreviewed } from './preview-access.ts';

const caller: Caller = { userId: 7, tokenId: 1 };

/** A preview check that lets through one label of one game and counts its calls. */
function fakePreview(appId: number, label: string) {
  const calls: (string | undefined)[] = [];
  const check: PreviewCheck = {
    previewAllows: async (_caller, id, given) => {
      calls.push(given);
      return id === appId && given === label;
    },
    previewOfGame: async (id, given) => id === appId && given === label,
    previewTester: async () => true,
  };
  return { check, calls };
}

describe('publishedOrPreviewed', () => {
  it('lets a published game through without asking the preview', async () => {
    const preview = fakePreview(1, 'p1');
    expect(await publishedOrPreviewed(true, preview.check, caller, 1, undefined)).toBe(true);
    expect(preview.calls).toEqual([]);
  });

  it('lets an unpublished game through only by a preview the check allows', async () => {
    const preview = fakePreview(1, 'p1');
    expect(await publishedOrPreviewed(false, preview.check, caller, 1, 'p1')).toBe(true);
    expect(await publishedOrPreviewed(false, preview.check, caller, 1, 'other')).toBe(false);
    expect(await publishedOrPreviewed(false, preview.check, caller, 2, 'p1')).toBe(false);
    expect(await publishedOrPreviewed(false, null, caller, 1, 'p1')).toBe(false);
  });

  it('refuses a game that does not exist, whatever the preview', async () => {
    const preview = fakePreview(1, 'p1');
    expect(await publishedOrPreviewed(undefined, preview.check, caller, 1, 'p1')).toBe(false);
    expect(preview.calls).toEqual([]);
  });
});
