import { createHmac } from 'node:crypto';
import type { PixelIds } from '#common/api/tracking.schema.ts';
import type { ClientFacts } from '#server/lib/caller.ts';
import { AppError } from '#server/lib/app-error.ts';
import { measurable } from './conversions.service.ts';

/**
 * The identifiers Meta receives (decision 065), from the pixel and from the Conversions API alike:
 * HMAC-SHA256 (hex) under a key derived from APP_SECRET. A plain SHA-256 of a sequential uid is
 * undone by hashing 1, 2, 3…; without the key nobody can. The page gets its values from the server
 * (GET /tracking/ids/), so the browser's event ids equal the server's and Meta keeps one of each pair.
 */
export class AdvertisingIdsService {
  readonly #key: Buffer;

  constructor(appSecret: string) {
    this.#key = createHmac('sha256', appSecret).update('meta-external-id').digest();
  }

  #mac(value: string): string {
    return createHmac('sha256', this.#key).update(value).digest('hex');
  }

  /** `external_id` of an account. */
  externalId(uid: number): string {
    return this.#mac(String(uid));
  }

  /** The event id of a registration or a purchase (`eventID` in the pixel, `event_id` in the Conversions API). */
  eventId(event: 'registration', uid: number): string;
  eventId(event: 'purchase', orderId: string): string;
  eventId(event: 'registration' | 'purchase', id: number | string): string {
    return this.#mac(`${event}:${id}`);
  }

  /** `order_id` of a purchase's custom data. */
  orderId(orderId: string): string {
    return this.#mac(`order:${orderId}`);
  }

  /**
   * The caller's ids for the pixel, and a purchase's when an order id is named: only for a visitor
   * the pixel may measure (a facebook or meta campaign, consent given), the same rule as the server's events.
   */
  forPixel(uid: number, client: ClientFacts, orderId: string | undefined): PixelIds {
    if (!measurable(client)) throw new AppError('forbidden');
    return {
      externalId: this.externalId(uid),
      registrationEventId: this.eventId('registration', uid),
      purchase: orderId === undefined ? null : { eventId: this.eventId('purchase', orderId), orderId: this.orderId(orderId) },
    };
  }
}
