import { describe, expect, it } from 'vitest';
import { dateLabels, formatDate } from './format-date.ts';

describe('formatDate and dateLabels', () => {
  it('writes a date in UTC as readers of the locale write it, long or medium', () => {
    // 23:30 UTC is already the next day east of UTC: the label must not depend on the machine's zone.
    expect(formatDate('2026-03-01T23:30:00.000Z', 'en')).toBe('March 1, 2026');
    expect(formatDate('2026-03-01T23:30:00.000Z', 'en', 'medium')).toBe('Mar 1, 2026');
    expect(formatDate('2026-03-01T23:30:00.000Z', 'zh-CN')).toBe('2026年3月1日');
  });

  it('labels each date of a page once, exactly as formatDate writes it', () => {
    const isos = ['2026-03-01T08:00:00.000Z', '2025-12-31T23:59:59.000Z', '2026-03-01T08:00:00.000Z'];
    for (const locale of ['en', 'zh-CN'] as const) {
      const labels = dateLabels(isos, locale, 'medium');
      expect(Object.keys(labels)).toEqual(['2026-03-01T08:00:00.000Z', '2025-12-31T23:59:59.000Z']);
      for (const iso of isos) expect(labels[iso]).toBe(formatDate(iso, locale, 'medium'));
    }
  });
});
