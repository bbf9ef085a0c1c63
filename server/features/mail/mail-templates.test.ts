import { describe, expect, it } from 'vitest';
import { renderMail } from './mail-templates.ts';

describe('mail templates', () => {
  const params = { nickname: 'Ann <script>&"x"', code: '123456', link: 'https://playport.example/verify?c=1&d=2' };

  it('renders the verification message in English, values escaped in the HTML part only', () => {
    const mail = renderMail('verify-email', 'en', params);
    expect(mail.subject).toBe('Your Playport code: 123456');
    expect(mail.text).toContain('Hello Ann <script>&"x",');
    expect(mail.text).toContain('https://playport.example/verify?c=1&d=2');
    expect(mail.html).toContain('<html lang="en">');
    expect(mail.html).toContain('Hello Ann &#60;script&#62;&#38;&#34;x&#34;,');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('href="https://playport.example/verify?c=1&#38;d=2"');
  });

  it('renders the same message in Simplified Chinese', () => {
    const mail = renderMail('verify-email', 'zh-CN', params);
    expect(mail.subject).toBe('你的 Playport 验证码：123456');
    expect(mail.text).toContain('请在 Playport 输入以下验证码');
    expect(mail.html).toContain('<html lang="zh-CN">');
    expect(mail.html).toContain('Ann &#60;script&#62;');
  });

  it('keeps a subject on one line and refuses a missing value', () => {
    expect(renderMail('verify-email', 'en', { ...params, code: '12\r\nBcc: x@y' }).subject).toBe('Your Playport code: 12 Bcc: x@y');
    expect(() => renderMail('verify-email', 'en', { nickname: 'Ann', code: '1' })).toThrow(/needs link/);
  });
});
