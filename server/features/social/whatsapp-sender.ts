import type { FastifyBaseLogger } from 'fastify';
import type { WhatsAppConfig } from '#server/config.ts';

/** Sends a sign-in code to a WhatsApp number. */
export interface CodeSender {
  send(phone: string, code: string): Promise<void>;
}

export class CodeSendFailure extends Error {
  override name = 'CodeSendFailure';
}

const SEND_TIMEOUT_MS = 10_000;

/**
 * The WhatsApp Cloud API: POST {api}/{phone-number-id}/messages with an authentication template
 * whose body takes the code and whose copy-code button carries it too, as Meta documents for
 * authentication templates.
 */
export class CloudApiCodeSender implements CodeSender {
  readonly #config: Extract<WhatsAppConfig, { sender: 'cloud' }>;
  constructor(config: Extract<WhatsAppConfig, { sender: 'cloud' }>) {
    this.#config = config;
  }

  async send(phone: string, code: string): Promise<void> {
    const response = await fetch(`${this.#config.apiUrl}/${encodeURIComponent(this.#config.phoneNumberId)}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.#config.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: phone.replace(/^\+/, ''),
        type: 'template',
        template: {
          name: this.#config.template,
          language: { code: this.#config.templateLanguage },
          components: [
            { type: 'body', parameters: [{ type: 'text', text: code }] },
            { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: code }] },
          ],
        },
      }),
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    }).catch((cause: unknown) => {
      throw new CodeSendFailure('WhatsApp Cloud API unreachable', { cause });
    });
    if (!response.ok) {
      const body = (await response.json().catch(() => null)) as { error?: { message?: string; code?: number } } | null;
      throw new CodeSendFailure(`WhatsApp Cloud API answered ${response.status}${body?.error ? `: ${body.error.code ?? ''} ${body.error.message ?? ''}` : ''}`);
    }
  }
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
