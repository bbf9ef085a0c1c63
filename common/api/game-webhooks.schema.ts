import { z } from 'zod';
import { AppIdSchema } from './catalogue.schema.ts';
import { BackendPreviewSchema } from './game-records.schema.ts';

/*
 * Server-to-server for a game's backend (decision 100): the Studio's webhook settings and delivery
 * log, and the signed calls a game's backend makes to look up a player's items and verify a
 * purchase. Messages are translation keys of the `studio` namespace.
 */

export const WebhookParamsSchema = z.object({ app_id: AppIdSchema });

export const WebhookUrlBodySchema = z.object({
  url: z
    .string()
    .trim()
    .max(2000)
    .nullable()
    .transform((value) => (value ? value : null))
    .meta({ description: 'https URL of the game backend (http on loopback in development); null or empty removes it' }),
});

export const WebhookDeliverySchema = z.object({
  id: z.number().int(),
  eventId: z.string(),
  eventType: z.string().meta({ description: '`order.paid`, `order.partially_refunded`, `order.refunded`, `items.consumed`, `player.deleted` or `test`' }),
  status: z
    .enum(['pending', 'delivered', 'failed'])
    .meta({ description: '`failed`: given up after a day of retries, or at once when the address was refused' }),
  attempts: z.number().int(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  lastStatusCode: z.number().int().nullable(),
  lastResponse: z.string().nullable().meta({ description: "The first 512 bytes of the last answer's body" }),
  lastError: z.string().nullable(),
  refused: z
    .enum(['invalid', 'scheme', 'credentials', 'private_address'])
    .nullable()
    .meta({ description: 'Set when the last attempt was not made: the URL broke the address rule in force then (given up at once)' }),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookSettingsSchema = z.object({
  url: z.string().nullable(),
  hasSecret: z.boolean(),
  secretCreatedAt: z.string().nullable().meta({ description: 'When the current webhook secret was made' }),
  previousSecretExpiresAt: z
    .string()
    .nullable()
    .meta({ description: 'Until when webhooks also carry the signature of the secret the current one replaced (decision 110); null when none' }),
  deliveries: z.array(WebhookDeliverySchema),
});
export type WebhookSettings = z.infer<typeof WebhookSettingsSchema>;

export const WebhookUrlSchema = z.object({
  url: z.string().nullable(),
  secret: z.string().nullable().meta({ description: 'The new webhook secret, the first time a URL is set: shown this once' }),
});

/** Until when the replaced secret still works: 24 hours after a rotation (decision 110). */
const PreviousExpiresSchema = z
  .string()
  .nullable()
  .meta({ description: 'Until when the secret this one replaced still works (24 hours); null when the game had none' });

export const WebhookSecretSchema = z.object({
  secret: z.string().meta({ description: 'The new webhook secret, shown this once' }),
  previousExpiresAt: PreviousExpiresSchema,
});

export const BackendSecretStatusSchema = z.object({
  hasSecret: z.boolean(),
  createdAt: z.string().nullable().meta({ description: 'When the current backend secret was made' }),
  previousExpiresAt: z.string().nullable().meta({ description: 'Until when the secret it replaced still verifies (decision 110); null when none' }),
});
export type BackendSecretStatus = z.infer<typeof BackendSecretStatusSchema>;

export const BackendSecretSchema = z.object({
  secret: z.string().meta({ description: "The new backend secret (`pps_…`), shown this once: the game's server signs its calls with it" }),
  previousExpiresAt: PreviousExpiresSchema,
});

/** Any text: two identical calls in the same second would have the same signature, and the second be refused as a replay. */
const NonceSchema = z.string().max(64).optional().meta({ description: 'Optional: any text that makes a repeated call differ (signatures are accepted once)' });

export const BackendItemsBodySchema = z.object({
  nonce: NonceSchema,
  preview: BackendPreviewSchema,
  uid: z.number().int().positive().meta({ description: "The player: the `sub` of the player's game token" }),
});

export const BackendItemsSchema = z.object({
  uid: z.number().int(),
  livemode: z.boolean().meta({ description: "False in test mode: what a preview's test orders bought, never owned in the live game" }),
  permanent: z.array(z.object({ sku: z.string(), orderId: z.string(), paidAt: z.string().nullable() })),
  consumables: z.array(z.object({ sku: z.string(), quantity: z.number().int() })),
});

export const BackendPurchaseBodySchema = z.object({
  nonce: NonceSchema,
  orderId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'payments:errors.orderNotFound'),
});

export const BackendPurchaseSchema = z.object({
  orderId: z.string(),
  livemode: z.boolean().meta({ description: 'False for a test order made in a build preview with test payments: grant nothing live for it' }),
  status: z.string().meta({ description: '`paid` or `refunded` for a purchase that happened; `created`, `pending`, `failed` or `cancelled` otherwise' }),
  sku: z.string(),
  uid: z.number().int(),
  amount: z.number().int().meta({ description: "In the currency's minor units" }),
  currency: z.string(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
});
