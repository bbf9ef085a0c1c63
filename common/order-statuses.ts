// An order's statuses (decision 064), without zod: pages that name them load no schema module
// (decision 078).

export const ORDER_STATUSES = ['created', 'pending', 'paid', 'failed', 'refunded', 'cancelled'] as const;
export type OrderStatusName = (typeof ORDER_STATUSES)[number];
