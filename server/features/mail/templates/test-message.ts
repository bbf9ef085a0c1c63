import type { MailTemplate } from '../mail-templates.ts';

/** A message that only shows that mail goes out (an operator's check of the mail server). */
export const testMessage: MailTemplate<'nickname'> = {
  params: ['nickname'],
  en: {
    subject: 'Playport test message',
    text: 'Hello {{nickname}},\n\nThis message shows that Playport can send you email.',
    html: '<p>Hello {{nickname}},</p>\n<p>This message shows that Playport can send you email.</p>',
  },
  'zh-CN': {
    subject: 'Playport 测试邮件',
    text: '{{nickname}}，你好：\n\n这封邮件说明 Playport 可以给你发送电子邮件。',
    html: '<p>{{nickname}}，你好：</p>\n<p>这封邮件说明 Playport 可以给你发送电子邮件。</p>',
  },
};
