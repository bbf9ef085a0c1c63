import type { MailTemplate } from '../mail-templates.ts';

/** Asks a member to confirm an address: the code to type, or the link to open. */
export const verifyEmail: MailTemplate<'nickname' | 'code' | 'link'> = {
  params: ['nickname', 'code', 'link'],
  en: {
    subject: 'Your Playport code: {{code}}',
    text: [
      'Hello {{nickname}},',
      '',
      'To confirm that this is your email address, enter this code on Playport:',
      '',
      '    {{code}}',
      '',
      'or open this link:',
      '{{link}}',
      '',
      'If you did not ask for this, you can ignore this message: nothing changes.',
    ].join('\n'),
    html: [
      '<p>Hello {{nickname}},</p>',
      '<p>To confirm that this is your email address, enter this code on Playport:</p>',
      '<p style="font-size:1.5em;font-weight:bold;letter-spacing:0.2em">{{code}}</p>',
      '<p>or open this link: <a href="{{link}}">{{link}}</a></p>',
      '<p>If you did not ask for this, you can ignore this message: nothing changes.</p>',
    ].join('\n'),
  },
  'zh-CN': {
    subject: '你的 Playport 验证码：{{code}}',
    text: [
      '{{nickname}}，你好：',
      '',
      '请在 Playport 输入以下验证码，确认这是你的电子邮箱地址：',
      '',
      '    {{code}}',
      '',
      '或打开此链接：',
      '{{link}}',
      '',
      '如果这不是你本人的操作，请忽略此邮件，不会有任何更改。',
    ].join('\n'),
    html: [
      '<p>{{nickname}}，你好：</p>',
      '<p>请在 Playport 输入以下验证码，确认这是你的电子邮箱地址：</p>',
      '<p style="font-size:1.5em;font-weight:bold;letter-spacing:0.2em">{{code}}</p>',
      '<p>或打开此链接：<a href="{{link}}">{{link}}</a></p>',
      '<p>如果这不是你本人的操作，请忽略此邮件，不会有任何更改。</p>',
    ].join('\n'),
  },
};
