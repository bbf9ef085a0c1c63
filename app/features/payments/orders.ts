import type { Order } from '#common/api/game-store.schema.ts';
import { toMajorUnits } from '#common/money.ts';
import { api } from '../../lib/api-client.ts';
import { track } from '../../lib/track.ts';

export interface PurchaseResult {
  status: 'paid' | 'cancelled' | 'declined';
  orderId: string | null;
  sku: string;
}

/**
 * A paid order handed to the game: the server says `deliveredNow` for one call per order, so the
 * game's purchase event and the purchase tracking happen once, whichever tab or visit gets there.
 */
export async function deliverOrder(orderId: string, onDelivered: (order: Order) => void): Promise<Order> {
  const { data } = await api.post(`/game/orders/${encodeURIComponent(orderId)}/deliver`);
  if (data.deliveredNow) {
    onDelivered(data.order);
    const currency = data.order.currency || 'USD';
    track('purchase', { amount: toMajorUnits(data.order.amount, currency), currency, order_id: data.order.id });
  }
  return data.order;
}

/** Paid orders of this game not yet handed over (paid after the window closed, or in another tab). */
export async function deliverWaitingOrders(appId: number, onDelivered: (order: Order) => void): Promise<void> {
  const { data } = await api.get('/member/orders/');
  for (const order of data.items.filter((o) => o.appId === appId && o.status === 'paid' && !o.delivered)) await deliverOrder(order.id, onDelivered);
}
