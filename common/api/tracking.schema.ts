import { z } from 'zod';

/** GET /tracking/ids/: a purchase's ids too when its order is named. */
export const PixelIdsQuerySchema = z.object({
  order_id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{8,64}$/, 'payments:errors.orderNotFound')
    .optional()
    .meta({ description: "An order id: the purchase's event id and hashed order id are added" }),
});

/** The identifiers the pixel sends for the caller (decision 065): keyed hashes made by the server, never the ids themselves. */
export const PixelIdsSchema = z.object({
  externalId: z.string().meta({ description: "The account's external_id: HMAC-SHA256 of the uid under a key of the server, hex" }),
  registrationEventId: z.string().meta({ description: 'eventID of the account becoming a member (the Conversions API sends the same event_id)' }),
  purchase: z
    .object({
      eventId: z.string().meta({ description: "eventID of the order's purchase" }),
      orderId: z.string().meta({ description: 'order_id of the purchase, hashed' }),
    })
    .nullable(),
});
export type PixelIds = z.infer<typeof PixelIdsSchema>;
