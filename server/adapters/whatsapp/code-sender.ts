import type { FastifyBaseLogger } from 'fastify';

/**
 * Sends a sign-in code to a WhatsApp number. `CloudApiCodeSender` sends it through Meta's Cloud API;
 * `DevelopmentInbox` keeps it on this server, for development without Meta.
 */
export interface CodeSender {
  send(phone: string, code: string): Promise<void>;
}

export class CodeSendFailure extends Error {
  override name = 'CodeSendFailure';
}

export interface InboxMessage {
  phone: string;
  code: string;
  sentAt: string;
}

/**
 * Development only (refused in production by the configuration): writes each code to the server
 * log and keeps the last 50 for the local inbox page, so sign-in by WhatsApp works without Meta.
 */
export class DevelopmentInbox implements CodeSender {
  readonly #messages: InboxMessage[] = [];
  /** The server's log, once the server is up. */
  log: Pick<FastifyBaseLogger, 'info'> | null = null;

  async send(phone: string, code: string): Promise<void> {
    this.#messages.unshift({ phone, code, sentAt: new Date().toISOString() });
    this.#messages.length = Math.min(this.#messages.length, 50);
    this.log?.info({ phone, code }, 'WhatsApp sign-in code (development sender)');
  }

  messages(): readonly InboxMessage[] {
    return this.#messages;
  }
}
