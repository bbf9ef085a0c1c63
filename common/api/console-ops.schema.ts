import { z } from 'zod';
import { DataExportSchema } from './member-data.schema.ts';
import { ORDER_STATUSES, OrderSchema } from './game-store.schema.ts';

/*
 * Schemas of the Console's operations (decision 098): orders and their refund, members and their
 * sign-in, the acquisition report and the audit log. Operators only; rule messages are
 * translation keys of the `console` namespace.
 */

const SearchText = z.string().trim().max(200, 'console:ops.errors.queryTooLong');
const Reason = z.string().trim().min(3, 'console:ops.errors.reasonShort').max(500, 'console:ops.errors.reasonLong');

export const ConsoleOrderQuerySchema = z.object({
  q: SearchText.optional().meta({
    description: 'An order id, a provider transaction or order reference, a member id, username or e-mail; empty for the newest',
  }),
});
export const ConsoleOrderParamsSchema = z.object({ order_id: z.string().min(1).max(64) });
export const RefundBodySchema = z.object({
  reason: Reason.meta({ description: 'Why the order is refunded: 3–500 characters, kept in the audit log and sent to the game’s webhook' }),
  amount: z
    .number()
    .int('console:ops.errors.refundAmountWhole')
    .min(1, 'console:ops.errors.refundAmountWhole')
    .optional()
    .meta({ description: 'Minor units to give back, at most what is left of the order; left out (or all that is left): the whole order (decision 124)' }),
});

export const ConsoleOrderSchema = OrderSchema.omit({ delivered: true }).extend({
  status: z.enum(ORDER_STATUSES),
  providerOrderId: z.string().nullable(),
  refundRequestedAt: z.string().nullable(),
  refunded: z.number().int().meta({ description: 'Minor units given back so far (partial refunds add up; decision 124)' }),
  refundedAt: z.string().nullable().meta({ description: 'The latest refund’s time' }),
  member: z.object({ id: z.number().int(), username: z.string().nullable(), email: z.string().nullable() }),
});
export type ConsoleOrder = z.infer<typeof ConsoleOrderSchema>;
export const ConsoleOrderListSchema = z.object({ items: z.array(ConsoleOrderSchema) });
export type ConsoleOrderList = z.infer<typeof ConsoleOrderListSchema>;

export const OrderEventSchema = z.object({ type: z.string(), from: z.string().nullable(), to: z.string(), at: z.string() });
export const ConsoleOrderDetailSchema = z.object({ order: ConsoleOrderSchema, events: z.array(OrderEventSchema) });
export type ConsoleOrderDetail = z.infer<typeof ConsoleOrderDetailSchema>;
export const RefundResultSchema = ConsoleOrderDetailSchema.extend({
  refundedNow: z.boolean().meta({ description: 'True for the one request that refunded; false when it was refunded (or being refunded) already' }),
});
export type RefundResult = z.infer<typeof RefundResultSchema>;

export const ConsoleMemberQuerySchema = z.object({
  q: SearchText.min(1, 'console:ops.errors.queryEmpty').meta({ description: 'A member id, username, e-mail or phone' }),
});
export const ConsoleMemberParamsSchema = z.object({ user_id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

export const ConsoleMemberSummarySchema = z.object({
  id: z.number().int(),
  username: z.string().nullable(),
  nickname: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  isGuest: z.boolean(),
  disabledAt: z.string().nullable(),
  createdAt: z.string(),
  deletionRequestedAt: z
    .string()
    .nullable()
    .meta({ description: 'When the member closed the account to delete it (decision 147); erased 30 days later unless they sign in' }),
  erasedAt: z.string().nullable().meta({ description: 'When the account was erased: only an anonymous id is left' }),
});
export type ConsoleMemberSummary = z.infer<typeof ConsoleMemberSummarySchema>;
export const ConsoleMemberListSchema = z.object({ items: z.array(ConsoleMemberSummarySchema) });

export const SignInFailureSchema = z.object({ identifier: z.string(), method: z.string(), address: z.string(), at: z.string() });
export const ConsoleMemberDetailSchema = z.object({
  member: ConsoleMemberSummarySchema,
  signIn: z.object({
    password: z.boolean(),
    passkeys: z.array(z.object({ name: z.string().nullable(), createdAt: z.string(), lastUsedAt: z.string().nullable() })),
    social: z.array(z.object({ platform: z.string(), displayName: z.string().nullable(), createdAt: z.string() })),
    whatsappPhone: z.string().nullable(),
    device: z.boolean().meta({ description: 'A device sign-in (fingerprint and device id) is recorded' }),
    sessions: z.number().int().meta({ description: 'Open sessions (tokens)' }),
    twoFactor: z.boolean().meta({ description: 'Two-step sign-in with an authenticator app is on (decision 145); never the key' }),
  }),
  locked: z.boolean().meta({ description: 'Password sign-in is held back by its rate limits' }),
  failures: z.array(SignInFailureSchema),
  dataExports: z.array(DataExportSchema).meta({ description: "The member's archives of their data, newest first (decision 144)" }),
});
export type ConsoleMemberDetail = z.infer<typeof ConsoleMemberDetailSchema>;
export const MemberActionBodySchema = z.object({ reason: Reason });

export const AcquisitionQuerySchema = z.object({
  since: z.iso.date('console:ops.errors.since').optional().meta({ description: 'YYYY-MM-DD; 30 days ago when left out' }),
});
export const AcquisitionReportSchema = z.object({
  since: z.string(),
  rows: z.array(
    z.object({
      source: z.string(),
      medium: z.string(),
      campaign: z.string(),
      signUps: z.number().int(),
      members: z.number().int(),
      paidOrders: z.number().int(),
      revenue: z.record(z.string(), z.number().int()).meta({ description: 'Minor units per currency' }),
    }),
  ),
});
export type AcquisitionReport = z.infer<typeof AcquisitionReportSchema>;

export const AuditQuerySchema = z.object({
  before: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  target_type: z.enum(['order', 'member', 'game', 'build', 'article', 'page']).optional(),
  target_id: z.string().trim().min(1).max(100).optional(),
});
export const AuditPageSchema = z.object({
  entries: z.array(
    z.object({
      id: z.number().int(),
      operator: z.object({ id: z.number().int(), username: z.string().nullable() }),
      action: z.string(),
      target: z.object({ type: z.string(), id: z.string() }),
      detail: z.record(z.string(), z.unknown()),
      createdAt: z.string(),
    }),
  ),
  nextBefore: z.number().int().nullable(),
});
export type AuditPage = z.infer<typeof AuditPageSchema>;

export const ConsoleOverviewSchema = z.object({
  buildsWaiting: z.number().int().meta({ description: 'Builds waiting for review' }),
  changesWaiting: z.number().int().meta({ description: 'Changes of live games waiting for review' }),
  members: z.number().int(),
  disabledMembers: z.number().int(),
  paidOrders: z.number().int(),
  refundedOrders: z.number().int(),
  auditEntries: z.number().int(),
  dataExportsPending: z.number().int().meta({ description: 'Archives of members’ data asked for and not prepared yet (decision 144)' }),
  deletionsPending: z.number().int().meta({ description: 'Accounts their members closed to delete them, not erased yet (decision 147)' }),
});
export type ConsoleOverview = z.infer<typeof ConsoleOverviewSchema>;
