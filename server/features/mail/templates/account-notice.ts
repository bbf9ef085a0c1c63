import type { Locale } from '#common/locales.ts';
import type { MailTemplate } from '../mail-templates.ts';

/** What a notice tells (decision 148): a sign-in from a new device, or a change of how the account signs in or is recovered. */
export const ACCOUNT_NOTICES = ['sign-in', 'password', 'email', 'phone', 'two-factor-on', 'two-factor-off', 'passkey-added', 'passkey-removed'] as const;
export type AccountNotice = (typeof ACCOUNT_NOTICES)[number];

/** The notice's first line, per language: the service puts it in as `what`. */
export const ACCOUNT_NOTICE_TEXT: Record<Locale, Record<AccountNotice, string>> = {
  en: {
    'sign-in': 'Someone signed in to your Playport account from a device or network it had not used before.',
    password: 'The password of your Playport account was changed.',
    email: 'The email address of your Playport account was changed or removed. This is the last notice sent to this address.',
    phone: 'The phone number of your Playport account was changed.',
    'two-factor-on': 'Two-step sign-in was turned on for your Playport account.',
    'two-factor-off': 'Two-step sign-in was turned off for your Playport account.',
    'passkey-added': 'A passkey was added to your Playport account.',
    'passkey-removed': 'A passkey was removed from your Playport account.',
  },
  'zh-CN': {
    'sign-in': '有人从以前未使用过的设备或网络登录了你的 Playport 账号。',
    password: '你的 Playport 账号密码已更改。',
    email: '你的 Playport 账号电子邮箱已更改或删除。这是发送到此地址的最后一封通知。',
    phone: '你的 Playport 账号手机号码已更改。',
    'two-factor-on': '你的 Playport 账号已开启两步登录。',
    'two-factor-off': '你的 Playport 账号已关闭两步登录。',
    'passkey-added': '你的 Playport 账号添加了一个通行密钥。',
    'passkey-removed': '你的 Playport 账号删除了一个通行密钥。',
  },
};

/** A notice to the confirmed address, with the "this wasn't me" link (decision 148). */
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
