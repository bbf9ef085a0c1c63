import type { ClientFacts } from '#server/lib/caller.ts';

/**
 * One advertising conversion as the server sends it (decision 065): `MetaConversionsApi` sends it
 * to Meta's Conversions API.
 */
export interface ConversionEvent {
  name: 'CompleteRegistration' | 'Purchase';
  /** The event id, hashed as the pixel's. */
  id: string;
  /** The account's external_id, hashed as the pixel's. */
  externalId: string;
  client: ClientFacts;
  /** Purchase only: the amount in major units, its currency, the hashed order id (as the pixel sends them). */
  custom?: { value: number; currency: string; order_id: string };
}

/** Sends a conversion somewhere; never throws, never delays the request that caused it. */
export interface ConversionSender {
  send(event: ConversionEvent): void;
}
