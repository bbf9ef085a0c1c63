import type { Locale } from '#common/locales.ts';
import { accountNotice } from './templates/account-notice.ts';
import { resetPassword } from './templates/reset-password.ts';
import { testMessage } from './templates/test-message.ts';
import { verifyEmail } from './templates/verify-email.ts';

/** One language of a template: `{{name}}` stands for a value, escaped in `html`. */
export interface MailTemplateText {
  subject: string;
  text: string;
  html: string;
}

/** A message in both languages, and the values it takes. */
export type MailTemplate<P extends string> = { params: readonly P[] } & Record<Locale, MailTemplateText>;

/** Every template, by the name the outbox keeps. */
export const MAIL_TEMPLATES = {
  'verify-email': verifyEmail,
  'reset-password': resetPassword,
  'account-notice': accountNotice,
  'test-message': testMessage,
} as const;

export type MailTemplateName = keyof typeof MAIL_TEMPLATES;
/** The values `name` takes. */
export type MailParams<N extends MailTemplateName> = Record<(typeof MAIL_TEMPLATES)[N]['params'][number], string>;

export interface RenderedMail extends MailTemplateText {
  locale: Locale;
}

export function isMailTemplateName(name: string): name is MailTemplateName {
  return Object.hasOwn(MAIL_TEMPLATES, name);
}

/**
 * The message `name` in `locale` with `params` put in. Values are plain text: escaped in the HTML
 * part, and a line break in a subject becomes a space (a header never takes a new line). A missing
 * or unknown value throws, so a message never goes out with a hole in it.
 */
export function renderMail(name: MailTemplateName, locale: Locale, params: Record<string, string>): RenderedMail {
  const template: MailTemplate<string> = MAIL_TEMPLATES[name];
  for (const key of template.params) if (typeof params[key] !== 'string') throw new Error(`mail template ${name} needs ${key}`);
  const fill = (source: string, escape: (value: string) => string) =>
    source.replace(/\{\{(\w+)\}\}/g, (_match, key: string) => {
      if (!template.params.includes(key)) throw new Error(`mail template ${name} has no value ${key}`);
      return escape(params[key]!);
    });
  const texts = template[locale];
  return {
    locale,
    subject: fill(texts.subject, (value) => value.replace(/[\r\n]+/g, ' ')),
    text: fill(texts.text, (value) => value),
    html: htmlDocument(locale, fill(texts.html, escapeHtml)),
  };
}

function htmlDocument(locale: Locale, body: string): string {
  return `<!doctype html>\n<html lang="${locale}"><head><meta charset="utf-8"></head><body style="font-family:system-ui,sans-serif;line-height:1.5">\n${body}\n</body></html>`;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
