import { z } from 'zod';
import { ORDER_STATUSES } from '../order-statuses.ts';
import { storedJson } from '../json-depth.ts';
import { AppIdSchema, GameConfigSchema } from './catalogue.schema.ts';

/*
 * Schemas of the game bridge and in-game purchases (spec section 7; decision 064). Amounts are
 * integer minor units (cents); prices come from the server only. Rule messages are translation
 * keys of the `payments` namespace.
 */

export const AppParamsSchema = z.object({ app_id: AppIdSchema });

/** POST /game/login/{app_id}: a short-lived token for the game's own backend (EdDSA JWT). */
export const GameLoginSchema = z.object({
  token: z.string().meta({ description: 'EdDSA-signed JWT: iss the portal origin, aud "app:{app_id}", sub the uid; verify with /serve/api/game/jwks.json' }),
  expiresAt: z.string().meta({ description: 'ISO time the token stops working (10 minutes)' }),
  user: z.object({ uid: z.number().int(), nickname: z.string().nullable(), isGuest: z.boolean() }),
});
export type GameLogin = z.infer<typeof GameLoginSchema>;

export const JwksSchema = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });

export const SAVE_KEY_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
/** One value, as JSON text. */
export const SAVE_VALUE_MAX_BYTES = 64 * 1024;
/** Everything a member keeps for one app. */
export const SAVES_PER_APP_MAX_BYTES = 256 * 1024;

export const SaveParamsSchema = z.object({
  app_id: AppIdSchema,
  key: z.string().regex(SAVE_KEY_PATTERN, 'games:saves.key').meta({ description: '1–64 letters, digits, _ . or -' }),
});
export const SaveBodySchema = z.object({ value: storedJson('Any JSON value; at most 64 KB as JSON text, 256 KB for all keys of the app') });
export const SaveSchema = z.object({
  key: z.string(),
  value: z.unknown().meta({ description: 'The stored value; null when the key holds nothing' }),
  updatedAt: z.string().nullable(),
});
export type Save = z.infer<typeof SaveSchema>;

export const ItemSchema = z.object({
  sku: z.string(),
  name: z.string(),
  amount: z.number().int().meta({ description: 'Price in minor units (cents)' }),
  currency: z.string(),
  owned: z.boolean().meta({ description: 'Whether the caller has a paid, unrefunded order of it (a permanent item; always false for a consumable)' }),
  kind: z.enum(['permanent', 'consumable']).meta({ description: 'Owned once bought, or used up from the inventory' }),
});
export type Item = z.infer<typeof ItemSchema>;

/** GET /game/config/{app_id}: the frame's settings, the game's items with prices and which the caller owns. */
export const GameConfigWithItemsSchema = GameConfigSchema.extend({ items: z.array(ItemSchema) });

export const SKU_PATTERN = /^[a-z0-9][a-z0-9_.-]{0,63}$/;

/** POST /game/pay/{app_id}: the item by SKU; the price is the server's. */
export const PayBodySchema = z.object({
  sku: z.string().regex(SKU_PATTERN, 'payments:errors.sku'),
  idempotencyKey: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,64}$/, 'payments:errors.idempotencyKey')
    .meta({ description: 'The same key answers the same order (a retried request makes no second order)' }),
});

/** The most a consume takes at once. */
export const CONSUME_MAX_QUANTITY = 1000;
export const CONSUME_KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,64}$/;

/** GET /game/inventory/{app_id}: the caller's consumable items of the game (decision 091). */
export const InventorySchema = z.object({
  items: z.array(z.object({ sku: z.string(), name: z.string(), quantity: z.number().int().min(1) })),
});
export type Inventory = z.infer<typeof InventorySchema>;

/** POST /game/inventory/{app_id}/consume: uses up a quantity of a consumable, once per idempotency key. */
export const ConsumeBodySchema = z.object({
  sku: z.string().regex(SKU_PATTERN, 'payments:errors.sku'),
  quantity: z.number().int().min(1).max(CONSUME_MAX_QUANTITY).meta({ description: '1–1000' }),
  idempotencyKey: z
    .string()
    .regex(CONSUME_KEY_PATTERN, 'payments:errors.consumeKey')
    .meta({ description: '8–64 letters, digits, _ . : -; the same key answers the same consumption, once' }),
});
export const ConsumeSchema = z.object({
  sku: z.string(),
  consumed: z.number().int(),
  remaining: z.number().int().meta({ description: 'What the inventory held right after this consumption' }),
});
export type Consume = z.infer<typeof ConsumeSchema>;

export const OrderSchema = z.object({
  id: z.string().meta({ description: 'The order id shown to members and sent to the provider' }),
  appId: z.number().int(),
  appTitle: z.string(),
  sku: z.string(),
  itemName: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  status: z.enum(ORDER_STATUSES),
  provider: z.string(),
  providerReference: z.string().nullable(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  delivered: z.boolean(),
  livemode: z.boolean().meta({ description: 'False for a test order, made in a build preview with test payments (decision 111)' }),
});
export type Order = z.infer<typeof OrderSchema>;
export const OrderListSchema = z.object({ items: z.array(OrderSchema) });
export type OrderList = z.infer<typeof OrderListSchema>;

export const OrderParamsSchema = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'payments:errors.orderNotFound') });

/** POST /payment/xsolla/create/: opens the checkout of an order. */
export const CheckoutBodySchema = z.object({ order_id: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'payments:errors.orderNotFound') });
export const CheckoutSchema = z.object({
  url: z.string().meta({ description: 'The Pay Station (or the sandbox checkout) address with the token, to open in a new window' }),
  token: z.string(),
  provider: z.enum(['xsolla', 'sandbox']),
  sandbox: z.boolean(),
});
export type Checkout = z.infer<typeof CheckoutSchema>;

/** POST /game/orders/{id}/deliver: whether this call is the one that hands the purchase to the game. */
export const DeliverySchema = z.object({ order: OrderSchema, deliveredNow: z.boolean() });
export type Delivery = z.infer<typeof DeliverySchema>;

/** The built-in sandbox checkout's payment (no Xsolla credentials). */
export const SandboxPayBodySchema = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{16,80}$/),
  // An empty card is refused, not tried: it is a slip, not a declined card (decision 118).
  card: z
    .string()
    .max(30)
    .transform((v) => v.replace(/[\s-]/g, ''))
    .refine((v) => v.length > 0, 'payments:errors.cardRequired'),
  challenge: z.string().max(10).optional(),
});
export const SandboxPaySchema = z.object({
  outcome: z.enum(['paid', 'declined', 'challenge']),
  orderId: z.string(),
});
export type SandboxPay = z.infer<typeof SandboxPaySchema>;
export const SandboxCheckoutSchema = z.object({
  orderId: z.string(),
  itemName: z.string(),
  appTitle: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  status: z.enum(ORDER_STATUSES),
});
export type SandboxCheckout = z.infer<typeof SandboxCheckoutSchema>;

export { ORDER_STATUSES };
