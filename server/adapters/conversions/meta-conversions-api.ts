import type { FastifyBaseLogger } from 'fastify';
import type { ConversionEvent, ConversionSender } from './conversion-sender.ts';

/** The Conversions API over HTTPS: POST {api}/{pixel id}/events, the access token in the body. */
export class MetaConversionsApi implements ConversionSender {
  readonly #endpoint: string;
  readonly #token: string;
  readonly #origin: string;
  /** Sends still under way: a stopping server waits for them (each gives up after 5 s). */
  readonly #inFlight = new Set<Promise<void>>();
  /** The server's logger, set when the app starts (failures are logged, never thrown). */
  log: Pick<FastifyBaseLogger, 'warn'> = { warn: () => undefined };

  constructor(options: { pixelId: string; url: string; token: string; publicOrigin: string }) {
    this.#endpoint = `${options.url}/${encodeURIComponent(options.pixelId)}/events`;
    this.#token = options.token;
    this.#origin = options.publicOrigin;
  }

  /** The request body for one event, without the token. */
  body(event: ConversionEvent, now = Date.now()): Record<string, unknown> {
    return {
      data: [
        {
          event_name: event.name,
          event_time: Math.floor(now / 1000),
          event_id: event.id,
          action_source: 'website',
          event_source_url: this.#origin,
          // The external id is the pixel's keyed hash; address and browser are sent as they are (Meta's rules).
          user_data: { external_id: [event.externalId], client_ip_address: event.client.address, client_user_agent: event.client.userAgent },
          ...(event.custom ? { custom_data: event.custom } : {}),
        },
      ],
    };
  }

  send(event: ConversionEvent): void {
    const sent = fetch(this.#endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...this.body(event), access_token: this.#token }),
      signal: AbortSignal.timeout(5000),
    })
      .then(async (response) => {
        if (!response.ok) this.log.warn({ status: response.status, event: event.name }, 'conversions API refused an event');
        await response.body?.cancel();
      })
      .catch((error: unknown) => this.log.warn({ err: error, event: event.name }, 'conversions API unreachable'))
      .finally(() => this.#inFlight.delete(sent));
    this.#inFlight.add(sent);
  }

  /** Resolves once every event sent so far has been answered or given up on. */
  async settled(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight);
  }
}
