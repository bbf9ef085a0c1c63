import { describe, expect, it } from 'vitest';
import { requestIdFor } from './request-id.ts';

describe('requestIdFor', () => {
  it('keeps a safe incoming id', () => {
    expect(requestIdFor('lb-4f2a9c1e')).toBe('lb-4f2a9c1e');
    expect(requestIdFor('Root=1-67891233-abcdef012345678912345678')).toBe('Root=1-67891233-abcdef012345678912345678');
    expect(requestIdFor('a'.repeat(128))).toBe('a'.repeat(128));
  });

  it('makes a new one for none, a short, long or unsafe id, or a repeated header', () => {
    for (const incoming of [
      undefined,
      '',
      'short',
      'a'.repeat(129),
      'abc def ghi',
      'abcdefgh\r\nx: y',
      'abcdefgh\u0000',
      'abcdefgh<script>',
      'idé-12345',
      ['abcdefgh1', 'abcdefgh2'],
    ]) {
      const id = requestIdFor(incoming);
      expect(id, JSON.stringify(incoming)).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(requestIdFor(undefined)).not.toBe(requestIdFor(undefined));
  });
});
