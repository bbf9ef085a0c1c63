import { z } from 'zod';
import type { WhatsAppConfig } from '#server/config.ts';
import { type CodeSender, CodeSendFailure } from './code-sender.ts';

const SEND_TIMEOUT_MS = 10_000;

/** The Cloud API's error answer, parsed: its code and message where they are there. */
const ErrorAnswer = z.object({
  error: z
    .object({ message: z.string().optional().catch(undefined), code: z.number().optional().catch(undefined) })
    .optional()
    .catch(undefined),
});

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
      const error = ErrorAnswer.safeParse(await response.json().catch(() => null)).data?.error;
      throw new CodeSendFailure(`WhatsApp Cloud API answered ${response.status}${error ? `: ${error.code ?? ''} ${error.message ?? ''}` : ''}`);
    }
  }
}
