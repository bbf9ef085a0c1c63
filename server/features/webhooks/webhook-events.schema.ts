import { z } from 'zod';

/*
 * The events a game's backend receives (decision 100), as zod schemas: WebhooksService builds
 * every payload through them, and the OpenAPI document's `webhooks` is generated from them
 * (decision 123), so what is sent and what is documented cannot differ.
 */

const Iso = z.string().describe('ISO 8601 time, UTC');

const OrderSchema = z.object({
  id: z.string().describe('The order id the game saw (`purchase.orderId`)'),
  status: z.string().describe('The order’s status: `paid` (also after a partial refund), or `refunded` for order.refunded'),
  sku: z.string().describe('The item’s SKU'),
  amount: z.number().int().describe('The price in minor units (cents)'),
  currency: z.string().describe('ISO 4217 code'),
  player: z.number().int().describe('The player id games see: the `sub` of the game token'),
  paidAt: Iso.nullable().describe('When it was paid'),
  refunded: z.number().int().optional().describe('Refund events: minor units given back so far (decision 124)'),
  refundedAt: Iso.nullable().optional().describe('Refund events: the latest refund’s time'),
});

/** What one refund gave back (decision 124). */
const RefundSchema = z.object({
  amount: z.number().int().describe('Minor units this refund gave back (a whole refund after partial ones: what was left)'),
  reason: z.string().nullable().describe('The reason the operator or the payment provider gave; null when none'),
  at: Iso.nullable().describe('When the refund was recorded'),
});

const ConsumptionSchema = z.object({
  player: z.number().int().describe('The player id games see'),
  sku: z.string(),
  quantity: z.number().int().describe('How many were used up'),
  remaining: z.number().int().describe('How many the player holds after it'),
  idempotencyKey: z.string().describe('The key the game sent with `items.consume`'),
});

/** Each event's `data`, by its type. */
const EVENT_DATA = {
  'order.paid': z.object({ order: OrderSchema }),
  'order.partially_refunded': z.object({ order: OrderSchema, refund: RefundSchema }),
  'order.refunded': z.object({
    order: OrderSchema,
    refund: RefundSchema.extend({
      itemsTakenBack: z
        .number()
        .int()
        .describe('1 when the refund took a consumable’s unit back from the player’s inventory, 0 when the player had used it (or for a permanent item)'),
    }),
  }),
  'items.consumed': z.object({ consumption: ConsumptionSchema }),
  'player.deleted': z.object({ player: z.number().int().describe('The player id games see (the `sub` of the game token) whose account was erased') }),
  test: z.object({ message: z.string() }),
} as const;

export type WebhookEventType = keyof typeof EVENT_DATA;
export type WebhookEventData<T extends WebhookEventType> = z.input<(typeof EVENT_DATA)[T]>;

/** Every event type the portal sends, in the order the document lists them. */
export const WEBHOOK_EVENT_TYPES = Object.keys(EVENT_DATA) as WebhookEventType[];

const eventSchema = <T extends WebhookEventType>(type: T) =>
  z.object({
    id: z
      .string()
      .regex(/^evt_[A-Za-z0-9_-]+$/)
      .describe('The event’s id, the same in every delivery of it (keep the ones you handled)'),
    type: z.literal(type),
    createdAt: Iso.describe('When the event happened'),
    livemode: z.boolean().describe('False for what a build preview’s test orders and holdings did, and for the Studio’s test event (decision 111)'),
    game: z.object({ id: z.number().int().describe('The game’s id') }),
    data: EVENT_DATA[type],
  });

/** The whole body of each event type, as sent. */
export const WEBHOOK_EVENT_SCHEMAS: { [T in WebhookEventType]: ReturnType<typeof eventSchema<T>> } = {
  'order.paid': eventSchema('order.paid'),
  'order.partially_refunded': eventSchema('order.partially_refunded'),
  'order.refunded': eventSchema('order.refunded'),
  'items.consumed': eventSchema('items.consumed'),
  'player.deleted': eventSchema('player.deleted'),
  test: eventSchema('test'),
};

/** What the document says of each event: when it is sent. */
export const WEBHOOK_EVENT_DESCRIPTIONS: Record<WebhookEventType, { summary: string; description: string }> = {
  'order.paid': { summary: 'An order of the game was paid', description: 'Sent once per order when it becomes paid.' },
  'order.partially_refunded': {
    summary: 'Part of a paid order was given back',
    description: 'Sent for each partial refund (decision 124); the order stays paid and the player keeps the item.',
  },
  'order.refunded': {
    summary: 'A paid order was refunded',
    description: 'Sent once per order when it becomes refunded, by the payment provider or an operator.',
  },
  'items.consumed': {
    summary: 'A player used up consumable items',
    description: 'Sent for each consumption a game made with `Playport.items.consume`.',
  },
  'player.deleted': {
    summary: 'A player deleted their account',
    description:
      'Sent once to each game whose backend knew the player (played it, bought in it, or holds a score, a save or items there) when their account is erased, 30 days after they asked to delete it (decision 147). Delete what your backend keeps of that player id; the id is never used again by anyone else.',
  },
  test: { summary: 'A test event from the Studio', description: '"Send a test event" on the game’s Webhooks page; `livemode` is false.' },
};

/** The `User-Agent` of every delivery. */
export const WEBHOOK_USER_AGENT = 'Playport-Webhooks/1';

/** The `Playport-Signature` header: one `v1` per secret that signs (two during a rotation's overlap, decision 110). */
export const WebhookSignatureSchema = z
  .string()
  .regex(/^t=\d+(,v1=[0-9a-f]{64})+$/)
  .describe(
    '`t={Unix seconds},v1={hex HMAC-SHA256 of "{t}.{raw body}" with the webhook secret}`; during a secret’s 24-hour overlap a second `v1`, the replaced secret’s, comes last. Check that one `v1` matches and that `t` is recent (docs/sdk/webhooks.md).',
  );

/**
 * The headers of a delivery of one event type (besides `Content-Type: application/json`), as
 * WebhooksService sends them and the document lists them.
 */
export function webhookHeaders(type: string, eventId: string, signature: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'playport-event-id': eventId,
    'playport-event-type': type,
    'playport-signature': signature,
  };
}

/** Every event for the OpenAPI document's `webhooks` (server/http/openapi.ts): its body and headers. */
export const DOCUMENTED_WEBHOOKS = WEBHOOK_EVENT_TYPES.map((type) => ({
  name: type,
  ...WEBHOOK_EVENT_DESCRIPTIONS[type],
  body: WEBHOOK_EVENT_SCHEMAS[type] as z.ZodType,
  headers: {
    'Playport-Event-Id': z.string().describe('The event’s `id`, as in the body'),
    'Playport-Event-Type': z.literal(type).describe('The event’s `type`, as in the body'),
    'Playport-Signature': WebhookSignatureSchema,
    'User-Agent': z.literal(WEBHOOK_USER_AGENT),
  } as Record<string, z.ZodType>,
}));

/**
 * One event's body as it is sent: checked against its schema, so a payload the document does not
 * describe is never queued.
 */
export function webhookEventBody<T extends WebhookEventType>(
  type: T,
  event: { id: string; createdAt: string; livemode: boolean; appId: number; data: WebhookEventData<T> },
): string {
  const schema = WEBHOOK_EVENT_SCHEMAS[type] as z.ZodType;
  return JSON.stringify(
    schema.parse({ id: event.id, type, createdAt: event.createdAt, livemode: event.livemode, game: { id: event.appId }, data: event.data }),
  );
}
