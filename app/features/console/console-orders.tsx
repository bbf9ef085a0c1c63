import { ORDER_STATUSES } from '#common/order-statuses.ts';
import { type ReactNode, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { ConsoleOrder, ConsoleOrderDetail } from '#common/api/console-ops.schema.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { toast } from '../../shell/toast-store.ts';
import { Button } from '../../ui/button.tsx';
import { cn } from '../../ui/cn.ts';
import { focusRing } from '../../ui/focus.ts';
import { formatMoney } from '#common/money.ts';
import { cellClass, failureText, formatDateTime, headClass, tableClass, tableFrame } from './console-format.ts';
import { ScrollRegion } from '../../ui/scroll-region.tsx';
import { ConsoleSearch } from './console-search.tsx';
import { ReasonDialog } from './reason-dialog.tsx';

const STATUS_STYLE: Record<ConsoleOrder['status'], string> = {
  created: 'bg-zinc-100 text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200',
  pending: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  paid: 'bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-200',
  failed: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200',
  refunded: 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200',
  cancelled: 'bg-zinc-100 text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200',
};

/** The Console's orders (decision 098): search, an order with its events, and its refund with a reason. */
export function ConsoleOrders() {
  const { t } = useTranslation('console');
  const locale = useLocale();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const selected = params.get('order');
  // Answers keep the search they answer: a newer search shows as loading until its own arrives.
  const [found, setFound] = useState<{ q: string; items: ConsoleOrder[] | null; error: string | null } | null>(null);
  const [loaded, setLoaded] = useState<ConsoleOrderDetail | null>(null);
  const orders = found?.q === q ? found.items : null;
  const error = found?.q === q ? found.error : null;
  const detail = loaded && loaded.order.id === selected ? loaded : null;
  const setOrders = (update: (items: ConsoleOrder[] | null) => ConsoleOrder[] | null) =>
    setFound((current) => (current ? { ...current, items: update(current.items) } : current));
  const [refunding, setRefunding] = useState(false);

  useEffect(() => {
    let active = true;
    api.get('/console/orders/', { query: q ? { q } : {} }).then(
      ({ data }) => active && setFound({ q, items: data.items, error: null }),
      (failure: unknown) => active && setFound({ q, items: null, error: failureText(failure, 'q', t('ops.loadFailed')) }),
    );
    return () => {
      active = false;
    };
    // oxlint-disable-next-line react/exhaustive-effect-dependencies -- item names come in the page's locale: another locale reads them again
  }, [q, locale, t]);

  useEffect(() => {
    if (!selected) return;
    let active = true;
    api.get(`/console/orders/${encodeURIComponent(selected)}`).then(
      ({ data }) => active && setLoaded(data),
      (failure: unknown) => active && toast.add({ title: failureText(failure, '', t('ops.loadFailed')), color: 'error' }),
    );
    return () => {
      active = false;
    };
    // oxlint-disable-next-line react/exhaustive-effect-dependencies -- item names come in the page's locale: another locale reads them again
  }, [selected, locale, t]);

  const search = (value: string) => setParams(value ? { q: value } : {});
  const open = (id: string) => setParams({ ...(q ? { q } : {}), order: id });

  const refund = async (reason: string, amount?: number) => {
    if (!detail) return;
    const { data } = await api.post(`/console/orders/${encodeURIComponent(detail.order.id)}/refund`, amount === undefined ? { reason } : { reason, amount });
    setLoaded(data);
    setOrders((list) => list?.map((order) => (order.id === data.order.id ? data.order : order)) ?? list);
    toast.add({ title: t(data.refundedNow ? 'ops.orders.refunded' : 'ops.orders.alreadyRefunded'), color: 'success' });
  };

  return (
    <section className="space-y-5" aria-labelledby="console-orders-heading">
      <h2 id="console-orders-heading" className="text-xl font-semibold tracking-tight">
        {t('ops.orders.heading')}
      </h2>
      <ConsoleSearch list="orders" initial={q} testId="order-search" onSearch={search} />

      {detail && <OrderDetail detail={detail} onRefund={() => setRefunding(true)} />}
      {detail && (
        <ReasonDialog
          key={`${detail.order.id}:${detail.order.refunded}`}
          open={refunding}
          onOpenChange={setRefunding}
          title={t('ops.orders.refundTitle', { id: detail.order.id })}
          description={t('ops.orders.refundBody', { provider: detail.order.provider })}
          confirmLabel={t('ops.orders.confirmRefundAny')}
          testId="refund-dialog"
          destructive
          amount={{ left: detail.order.amount - detail.order.refunded, currency: detail.order.currency }}
          onConfirm={refund}
        />
      )}

      <div aria-live="polite" aria-busy={orders === null && !error}>
        {error && <p className="text-red-700 dark:text-red-400">{error}</p>}
        {orders?.length === 0 && <p className="text-zinc-600 dark:text-zinc-400">{t('ops.orders.empty')}</p>}
      </div>
      {orders && orders.length > 0 && (
        <ScrollRegion label={t('ops.orders.heading')} className={tableFrame}>
          <table className={tableClass} data-testid="order-results">
            <thead className="bg-zinc-50 dark:bg-zinc-900">
              <tr>
                <th className={headClass}>{t('ops.orders.order')}</th>
                <th className={headClass}>{t('ops.orders.member')}</th>
                <th className={headClass}>{t('ops.orders.item')}</th>
                <th className={headClass}>{t('ops.orders.amount')}</th>
                <th className={headClass}>{t('ops.orders.status')}</th>
                <th className={headClass}>{t('ops.orders.created')}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {orders.map((order) => (
                <tr
                  key={order.id}
                  data-testid="order-row"
                  aria-current={order.id === selected ? 'true' : undefined}
                  className="aria-[current=true]:bg-green-50 dark:aria-[current=true]:bg-green-950/30"
                >
                  <td className={cn(cellClass, 'whitespace-nowrap')}>
                    <button
                      type="button"
                      onClick={() => open(order.id)}
                      className={cn('font-mono text-green-800 underline-offset-2 hover:underline dark:text-green-300', focusRing)}
                    >
                      {order.id}
                    </button>
                  </td>
                  <td className={cellClass}>{order.member.username ?? order.member.email ?? `#${order.member.id}`}</td>
                  {/* Wide enough to read on a phone: the table scrolls sideways instead of squeezing it (decision 126). */}
                  <td className={cn(cellClass, 'min-w-40')} data-testid="order-item">
                    {order.itemName}
                    <span className="block text-xs text-zinc-600 dark:text-zinc-400">{order.appTitle}</span>
                  </td>
                  <td className={cn(cellClass, 'whitespace-nowrap tabular-nums')}>{formatMoney(order.amount, order.currency, locale)}</td>
                  <td className={cellClass}>
                    <span className="inline-flex flex-wrap items-center gap-1">
                      <StatusBadge status={order.status} />
                      {!order.livemode && <TestBadge />}
                    </span>
                  </td>
                  <td className={cn(cellClass, 'whitespace-nowrap')}>{formatDateTime(order.createdAt, locale)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </section>
  );
}

/** One line of a detail list: its label and value. */
export function detailRow(label: string, value: ReactNode) {
  return (
    <>
      <dt className="text-zinc-600 dark:text-zinc-400">{label}</dt>
      <dd className="min-w-0 break-words">{value}</dd>
    </>
  );
}

function StatusBadge({ status }: { status: ConsoleOrder['status'] }) {
  const { t } = useTranslation('console');
  return (
    <span
      className={cn('rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap', STATUS_STYLE[status])}
      data-testid="order-status"
      data-status={status}
    >
      {t(`ops.orders.statuses.${status}`)}
    </span>
  );
}

/** Marks a test order (decision 111): made in a build preview with test payments, never owned in the live game. */
function TestBadge() {
  const { t } = useTranslation('console');
  return (
    <span
      className="rounded-full bg-violet-100 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-violet-900 dark:bg-violet-950 dark:text-violet-200"
      title={t('ops.orders.testHint')}
      data-testid="order-test"
    >
      {t('ops.orders.test')}
    </span>
  );
}

/** The order events the Console names in words (decision 126): the portal's own and the providers' notifications. */
const KNOWN_EVENTS = new Set([
  'created',
  'checkout',
  'payment',
  'order_paid',
  'refund',
  'partial_refund',
  'order_canceled',
  'ps_declined',
  'afs_reject',
  'declined',
  'operator_refund',
  'operator_partial_refund',
]);

function OrderDetail({ detail, onRefund }: { detail: ConsoleOrderDetail; onRefund: () => void }) {
  const { t } = useTranslation('console');
  const locale = useLocale();
  const { order, events } = detail;
  const statusText = (status: string) => ((ORDER_STATUSES as readonly string[]).includes(status) ? t(`ops.orders.statuses.${status}`) : status);
  return (
    <article className="space-y-4 rounded-xl border border-zinc-200 p-4 dark:border-zinc-800" aria-labelledby="order-detail-heading" data-testid="order-detail">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id="order-detail-heading" className="font-mono text-base font-semibold break-all">
          {order.id}
        </h3>
        <span className="inline-flex items-center gap-1">
          <StatusBadge status={order.status} />
          {!order.livemode && <TestBadge />}
        </span>
      </div>
      {!order.livemode && <p className="text-sm text-violet-900 dark:text-violet-200">{t('ops.orders.testHint')}</p>}
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        {detailRow(t('ops.orders.member'), `${order.member.username ?? '—'} · ${order.member.email ?? '—'} · #${order.member.id}`)}
        {detailRow(t('ops.orders.item'), t('ops.orders.itemOfGame', { item: order.itemName, sku: order.sku, game: order.appTitle }))}
        {detailRow(t('ops.orders.amount'), formatMoney(order.amount, order.currency, locale))}
        {detailRow(t('ops.orders.provider'), order.provider)}
        {detailRow(t('ops.orders.transaction'), <span className="font-mono">{order.providerReference ?? '—'}</span>)}
        {detailRow(t('ops.orders.providerOrder'), <span className="font-mono">{order.providerOrderId ?? '—'}</span>)}
        {detailRow(t('ops.orders.created'), formatDateTime(order.createdAt, locale))}
        {order.paidAt && detailRow(t('ops.orders.paid'), formatDateTime(order.paidAt, locale))}
        {order.refunded > 0 &&
          detailRow(
            t('ops.orders.refundedAmount'),
            <span data-testid="order-refunded">
              {t('ops.orders.refundedLine', {
                amount: formatMoney(order.refunded, order.currency, locale),
                at: order.refundedAt ? formatDateTime(order.refundedAt, locale) : '—',
              })}
            </span>,
          )}
      </dl>
      <div>
        <h4 className="mb-1 text-sm font-semibold">{t('ops.orders.events')}</h4>
        <ol className="space-y-1 text-sm" data-testid="order-events">
          {events.map((event, index) => (
            <li key={index} className="flex flex-wrap gap-x-3" data-event={event.type}>
              <span className="text-zinc-600 tabular-nums dark:text-zinc-400">{formatDateTime(event.at, locale)}</span>
              <span>
                {t('ops.orders.eventLine', {
                  // A provider's event the Console does not know yet keeps its own code (decision 126).
                  event: KNOWN_EVENTS.has(event.type) ? t(`ops.orders.eventTypes.${event.type}`) : event.type,
                  from: event.from ? statusText(event.from) : '—',
                  to: statusText(event.to),
                })}
              </span>
            </li>
          ))}
        </ol>
      </div>
      {order.refundRequestedAt && order.status === 'paid' && (
        <p className="text-sm text-amber-800 dark:text-amber-300">{t('ops.orders.refundRequested', { at: formatDateTime(order.refundRequestedAt, locale) })}</p>
      )}
      {order.status === 'paid' && !order.refundRequestedAt && (
        <Button variant="danger" onClick={onRefund} data-testid="refund-open">
          {t('ops.orders.refund')}
        </Button>
      )}
    </article>
  );
}
