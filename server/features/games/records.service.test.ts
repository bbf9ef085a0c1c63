import { describe, expect, it } from 'vitest';
import { periodKey } from './records.service.ts';

describe('periods of a leaderboard', () => {
  it('names the UTC day and the ISO week a score falls in', () => {
    expect(periodKey('all-time', new Date('2026-11-26T10:00:00Z'))).toBe('all-time');
    expect(periodKey('daily', new Date('2026-11-26T23:59:59Z'))).toBe('daily:2026-11-26');
    expect(periodKey('daily', new Date('2026-11-27T00:00:00Z'))).toBe('daily:2026-11-27');
    // Monday starts a week; Sunday ends it.
    expect(periodKey('weekly', new Date('2026-11-29T23:59:59Z'))).toBe('weekly:2026-W48');
    expect(periodKey('weekly', new Date('2026-11-30T00:00:00Z'))).toBe('weekly:2026-W49');
    // Weeks across the new year belong to the year of their Thursday.
    expect(periodKey('weekly', new Date('2026-12-31T12:00:00Z'))).toBe('weekly:2026-W53');
    expect(periodKey('weekly', new Date('2027-01-03T12:00:00Z'))).toBe('weekly:2026-W53');
    expect(periodKey('weekly', new Date('2027-01-04T12:00:00Z'))).toBe('weekly:2027-W01');
    expect(periodKey('weekly', new Date('2025-12-29T12:00:00Z'))).toBe('weekly:2026-W01');
  });
});
