import { describe, expect, it } from 'vitest';
import { redactTokenInUrl } from './app.ts';

describe('redactTokenInUrl', () => {
  it('hides a token in the query and keeps the rest', () => {
    expect(redactTokenInUrl('/?token=12|abcdef&utm_source=x')).toBe('/?token=[redacted]&utm_source=x');
    expect(redactTokenInUrl('/zh-CN?a=1&token=9%7Csecret')).toBe('/zh-CN?a=1&token=[redacted]');
    expect(redactTokenInUrl('/app/snake')).toBe('/app/snake');
  });
});
