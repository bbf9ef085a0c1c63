import enAccounts from './locales/en/accounts.json' with { type: 'json' };
import enArticles from './locales/en/articles.json' with { type: 'json' };
import enCatalogue from './locales/en/catalogue.json' with { type: 'json' };
import enCommon from './locales/en/common.json' with { type: 'json' };
import enErrors from './locales/en/errors.json' with { type: 'json' };
import enGames from './locales/en/games.json' with { type: 'json' };
import enPasskeys from './locales/en/passkeys.json' with { type: 'json' };
import enPayments from './locales/en/payments.json' with { type: 'json' };
import enQa from './locales/en/qa.json' with { type: 'json' };
import enSocial from './locales/en/social.json' with { type: 'json' };
import enShell from './locales/en/shell.json' with { type: 'json' };
import enStudio from './locales/en/studio.json' with { type: 'json' };
import enConsole from './locales/en/console.json' with { type: 'json' };
import enEarnings from './locales/en/earnings.json' with { type: 'json' };
import zhAccounts from './locales/zh-CN/accounts.json' with { type: 'json' };
import zhArticles from './locales/zh-CN/articles.json' with { type: 'json' };
import zhCatalogue from './locales/zh-CN/catalogue.json' with { type: 'json' };
import zhCommon from './locales/zh-CN/common.json' with { type: 'json' };
import zhErrors from './locales/zh-CN/errors.json' with { type: 'json' };
import zhGames from './locales/zh-CN/games.json' with { type: 'json' };
import zhPasskeys from './locales/zh-CN/passkeys.json' with { type: 'json' };
import zhPayments from './locales/zh-CN/payments.json' with { type: 'json' };
import zhQa from './locales/zh-CN/qa.json' with { type: 'json' };
import zhSocial from './locales/zh-CN/social.json' with { type: 'json' };
import zhShell from './locales/zh-CN/shell.json' with { type: 'json' };
import zhStudio from './locales/zh-CN/studio.json' with { type: 'json' };
import zhConsole from './locales/zh-CN/console.json' with { type: 'json' };
import zhEarnings from './locales/zh-CN/earnings.json' with { type: 'json' };
import type { Locale } from '../locales.ts';

/**
 * Every message namespace, per locale. en and zh-CN must have the same keys
 * (a unit test compares them). Add a namespace to both locales in one change.
 */
export const MESSAGES = {
  en: {
    common: enCommon,
    errors: enErrors,
    catalogue: enCatalogue,
    articles: enArticles,
    accounts: enAccounts,
    passkeys: enPasskeys,
    social: enSocial,
    payments: enPayments,
    games: enGames,
    qa: enQa,
    shell: enShell,
    studio: enStudio,
    console: enConsole,
    earnings: enEarnings,
  },
  'zh-CN': {
    common: zhCommon,
    errors: zhErrors,
    catalogue: zhCatalogue,
    articles: zhArticles,
    accounts: zhAccounts,
    passkeys: zhPasskeys,
    social: zhSocial,
    payments: zhPayments,
    games: zhGames,
    qa: zhQa,
    shell: zhShell,
    studio: zhStudio,
    console: zhConsole,
    earnings: zhEarnings,
  },
} satisfies Record<Locale, Record<string, unknown>>;

export type Messages = (typeof MESSAGES)['en'];
