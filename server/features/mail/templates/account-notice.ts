import type { MailTemplate } from '../mail-templates.ts';

/** A notice to the confirmed address, with the "this wasn't me" link (decision 148); `what` is the accounts feature's sentence for the change. */
export const accountNotice: MailTemplate<'nickname' | 'what' | 'when' | 'device' | 'link'> = {
  params: ['nickname', 'what', 'when', 'device', 'link'],
  en: {
    subject: 'Playport account notice',
    text: [
      'Hello {{nickname}},',
      '',
      '{{what}}',
      '',
      'When: {{when}} (UTC)',
      'Browser: {{device}}',
      '',
      'If this was you, there is nothing to do.',
      '',
      'If it was not you, open this link within 7 days. It signs your account out on every device and lets you choose a new password:',
      '{{link}}',
    ].join('\n'),
    html: [
      '<p>Hello {{nickname}},</p>',
      '<p><strong>{{what}}</strong></p>',
      '<p>When: {{when}} (UTC)<br>Browser: {{device}}</p>',
      '<p>If this was you, there is nothing to do.</p>',
      '<p>If it was not you, open this link within 7 days. It signs your account out on every device and lets you choose a new password:<br><a href="{{link}}">This wasn’t me</a></p>',
    ].join('\n'),
  },
  'zh-CN': {
    subject: 'Playport 账号通知',
    text: [
      '{{nickname}}，你好：',
      '',
      '{{what}}',
      '',
      '时间：{{when}}（UTC）',
      '浏览器：{{device}}',
      '',
      '如果是你本人的操作，无需处理。',
      '',
      '如果不是你本人，请在 7 天内打开此链接。它会让你的账号在所有设备上退出登录，并让你设置新密码：',
      '{{link}}',
    ].join('\n'),
    html: [
      '<p>{{nickname}}，你好：</p>',
      '<p><strong>{{what}}</strong></p>',
      '<p>时间：{{when}}（UTC）<br>浏览器：{{device}}</p>',
      '<p>如果是你本人的操作，无需处理。</p>',
      '<p>如果不是你本人，请在 7 天内打开此链接。它会让你的账号在所有设备上退出登录，并让你设置新密码：<br><a href="{{link}}">不是我本人</a></p>',
    ].join('\n'),
  },
};
