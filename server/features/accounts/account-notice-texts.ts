import type { Locale } from '#common/locales.ts';

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
