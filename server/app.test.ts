import { describe, expect, it } from 'vitest';
import { redactTokenInUrl } from './app.ts';

describe('redactTokenInUrl', () => {
  it('hides a token in the query and keeps the rest', () => {
    expect(redactTokenInUrl('/?token=12|abcdef&utm_source=x')).toBe('/?token=[redacted]&utm_source=x');
    expect(redactTokenInUrl('/zh-CN?a=1&token=9%7Csecret')).toBe('/zh-CN?a=1&token=[redacted]');
    expect(redactTokenInUrl('/app/snake')).toBe('/app/snake');
    expect(redactTokenInUrl('/zh-CN/login/reset?key=abc_DEF-1')).toBe('/zh-CN/login/reset?key=[redacted]');
    expect(redactTokenInUrl('/user/profile/email?code=123456&x=1')).toBe('/user/profile/email?code=[redacted]&x=1');
  });
});
