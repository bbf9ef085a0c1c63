import type { MailTemplate } from '../mail-templates.ts';

/** The "Forgot password" link (decision 146): one account per message, 30 minutes, single use. */
export const resetPassword: MailTemplate<'nickname' | 'account' | 'link'> = {
  params: ['nickname', 'account', 'link'],
  en: {
    subject: 'Choose a new Playport password',
    text: [
      'Hello {{nickname}},',
      '',
      'Someone asked to choose a new password for the Playport account {{account}}. To choose one, open this link within 30 minutes:',
      '{{link}}',
      '',
      'The link works once. Choosing a new password signs the account out on every device.',
      '',
      'If you did not ask for this, ignore this message: your password stays as it is.',
    ].join('\n'),
    html: [
      '<p>Hello {{nickname}},</p>',
      '<p>Someone asked to choose a new password for the Playport account <strong>{{account}}</strong>. To choose one, open this link within 30 minutes:</p>',
      '<p><a href="{{link}}">{{link}}</a></p>',
      '<p>The link works once. Choosing a new password signs the account out on every device.</p>',
      '<p>If you did not ask for this, ignore this message: your password stays as it is.</p>',
    ].join('\n'),
  },
  'zh-CN': {
    subject: '为你的 Playport 账号设置新密码',
    text: [
      '{{nickname}}，你好：',
      '',
      '有人请求为 Playport 账号 {{account}} 设置新密码。如需设置，请在 30 分钟内打开此链接：',
      '{{link}}',
      '',
      '此链接只能使用一次。设置新密码后，该账号会在所有设备上退出登录。',
      '',
      '如果这不是你本人的操作，请忽略此邮件，你的密码不会改变。',
    ].join('\n'),
    html: [
      '<p>{{nickname}}，你好：</p>',
      '<p>有人请求为 Playport 账号 <strong>{{account}}</strong> 设置新密码。如需设置，请在 30 分钟内打开此链接：</p>',
      '<p><a href="{{link}}">{{link}}</a></p>',
      '<p>此链接只能使用一次。设置新密码后，该账号会在所有设备上退出登录。</p>',
      '<p>如果这不是你本人的操作，请忽略此邮件，你的密码不会改变。</p>',
    ].join('\n'),
  },
};
