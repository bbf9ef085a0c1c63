import { toMajorUnits } from '#common/money.ts';
import type { ConversionSender } from '#server/adapters/conversions/conversion-sender.ts';
import type { ClientFacts } from '#server/lib/caller.ts';
import type { AdvertisingIdsService } from './advertising-ids.service.ts';

/** Whether a request's visitor may be measured: a facebook or meta campaign, and consent given. */
export function measurable(client: ClientFacts): boolean {
  return client.adConsent === true && /^(facebook|meta)$/i.test(client.campaign?.source?.trim() ?? '');
}

/**
 * The server's copy of the advertising events (decision 065): Meta's Conversions API, an option
 * next to the pixel. The same rules as the pixel (a visitor from a facebook or meta campaign who
 * accepted advertising measurement), the same keyed hashes of the ids, and the pixel's event ids
 * (of `registration:{uid}` and `purchase:{order id}`, advertising-ids.service.ts), so Meta counts
 * each action once.
 * https://developers.facebook.com/docs/marketing-api/conversions-api/parameters/server-event
 * https://developers.facebook.com/docs/marketing-api/conversions-api/deduplicate-pixel-and-server-events
 */
export class ConversionsService {
  readonly #sender: ConversionSender;
  readonly #ids: AdvertisingIdsService;

  constructor(sender: ConversionSender, ids: AdvertisingIdsService) {
    this.#sender = sender;
    this.#ids = ids;
  }

  /** A guest became a member of the same account. */
  registration(uid: number, client: ClientFacts): void {
    if (measurable(client))
      this.#sender.send({ name: 'CompleteRegistration', id: this.#ids.eventId('registration', uid), externalId: this.#ids.externalId(uid), client });
  }

  /** A paid order was handed to its game (once per order). */
  purchase(uid: number, order: { id: string; amount: number; currency: string }, client: ClientFacts): void {
    if (!measurable(client)) return;
    const currency = order.currency || 'USD';
    const custom = { value: toMajorUnits(order.amount, currency), currency, order_id: this.#ids.orderId(order.id) };
    this.#sender.send({ name: 'Purchase', id: this.#ids.eventId('purchase', order.id), externalId: this.#ids.externalId(uid), client, custom });
  }
}
