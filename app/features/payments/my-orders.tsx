import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/translation.tsx';
import type { Order } from '#common/api/game-store.schema.ts';
import type { Locale } from '#common/locales.ts';
import { api } from '../../lib/api-client.ts';
import { formatDate } from '../../lib/format-date.ts';
import { cn } from '../../ui/cn.ts';
import { focusRing } from '../../ui/focus.ts';
import { useSession } from '../accounts/use-session.ts';
import { formatMoney } from '#common/money.ts';

const STATUS_STYLE: Record<Order['status'], string> = {
  created: 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
  pending: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  paid: 'bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-200',
  failed: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200',
  refunded: 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
  cancelled: 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
};

/** My area's orders (decision 064): each with its status, and its receipt a click away. Members only: guests cannot buy. */
export function MyOrders({ locale }: { locale: Locale }) {
  const { t } = useTranslation('payments');
  const { isMember } = useSession();
  const [orders, setOrders] = useState<Order[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!isMember) return;
    let active = true;
    api.get('/member/orders/').then(
      ({ data }) => active && setOrders(data.items),
      () => active && setFailed(true),
    );
    return () => {
      active = false;
    };
    // oxlint-disable-next-line react/exhaustive-effect-dependencies -- item names come in the page's locale: another locale reads them again
  }, [isMember, locale]);
  if (!isMember) return null;
  return (
    <section aria-labelledby="orders-heading" aria-busy={orders === null && !failed} className="space-y-3" data-testid="my-orders">
      <h2 id="orders-heading" className="text-lg font-semibold tracking-tight">
        {t('orders.title')}
      </h2>
      {failed && <p className="text-red-700 dark:text-red-400">{t('buy.failed')}</p>}
      {orders?.length === 0 && <p className="text-zinc-600 dark:text-zinc-400">{t('orders.empty')}</p>}
      {orders && orders.length > 0 && (
        <ul className="divide-y divide-zinc-200 overflow-hidden rounded-xl border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
          {orders.map((order) => (
            <li key={order.id} data-testid="order-item" data-status={order.status}>
              <details className="group">
                <summary className={cn('flex cursor-pointer list-none items-center gap-3 px-4 py-3 hover:bg-zinc-50 dark:hover:bg-zinc-900', focusRing)}>
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-medium">{order.itemName}</span>
                    <span className="block truncate text-sm text-zinc-600 dark:text-zinc-400">
                      {order.appTitle} · {formatDate(order.createdAt, locale)}
                    </span>
                  </span>
                  <span className="text-sm font-medium tabular-nums">{formatMoney(order.amount, order.currency, locale)}</span>
                  <span className={cn('rounded-full px-2 py-0.5 text-xs font-medium', STATUS_STYLE[order.status])} data-testid="order-status">
                    {t(`orders.status.${order.status}`)}
                  </span>
                  {!order.livemode && (
                    <span
                      className="rounded-full bg-violet-100 px-2 py-0.5 text-xs font-medium text-violet-900 dark:bg-violet-950 dark:text-violet-200"
                      data-testid="order-test"
                    >
                      {t('orders.test')}
                    </span>
                  )}
                </summary>
                <dl
                  className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 border-t border-zinc-200 bg-zinc-50 px-4 py-3 text-sm dark:border-zinc-800 dark:bg-zinc-900"
                  data-testid="order-receipt"
                  aria-label={t('orders.receipt')}
                >
                  <dt className="text-zinc-600 dark:text-zinc-400">{t('orders.order')}</dt>
                  <dd className="font-mono break-all">{order.id}</dd>
                  <dt className="text-zinc-600 dark:text-zinc-400">{t('orders.item')}</dt>
                  <dd>{order.itemName}</dd>
                  <dt className="text-zinc-600 dark:text-zinc-400">{t('orders.game')}</dt>
                  <dd>{order.appTitle}</dd>
                  <dt className="text-zinc-600 dark:text-zinc-400">{t('orders.amount')}</dt>
                  <dd>{formatMoney(order.amount, order.currency, locale)}</dd>
                  <dt className="text-zinc-600 dark:text-zinc-400">{t('orders.date')}</dt>
                  <dd>{formatDate(order.createdAt, locale)}</dd>
                  {order.paidAt && (
                    <>
                      <dt className="text-zinc-600 dark:text-zinc-400">{t('orders.paidAt')}</dt>
                      <dd>{formatDate(order.paidAt, locale)}</dd>
                    </>
                  )}
                  <dt className="text-zinc-600 dark:text-zinc-400">{t('orders.provider')}</dt>
                  <dd>{order.provider === 'sandbox' ? t('sandbox.title') : 'Xsolla'}</dd>
                  {order.providerReference && (
                    <>
                      <dt className="text-zinc-600 dark:text-zinc-400">{t('orders.reference')}</dt>
                      <dd className="font-mono">{order.providerReference}</dd>
                    </>
                  )}
                </dl>
              </details>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
