import { describe, expect, it } from 'vitest';
import { formatScore } from './game-records.tsx';

describe('scores on the app page', () => {
  it('shows points in the page language and times in milliseconds as m:ss.mmm', () => {
    expect(formatScore(12345, 'number', 'en')).toBe('12,345');
    expect(formatScore(83_456, 'time', 'en')).toBe('1:23.456');
    expect(formatScore(5_007, 'time', 'zh-CN')).toBe('0:05.007');
    expect(formatScore(3_600_000, 'time', 'en')).toBe('60:00.000');
  });
});
