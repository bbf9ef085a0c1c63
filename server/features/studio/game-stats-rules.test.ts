import { describe, expect, it } from 'vitest';
import { GAMEPLAY_BUCKET_MS as migrationBucket } from '#server/db/migrations/0025-game-stats-rollup.ts';
import { GAMEPLAY_BUCKET_MS } from './game-stats-rules.ts';

describe('the statistics rules', () => {
  it('bucket times to gameplay as the rollup installed by migration 0025 does', () => {
    // Changing the width needs a new migration that rebuilds the rollup with it.
    expect(GAMEPLAY_BUCKET_MS).toBe(migrationBucket);
  });
});
