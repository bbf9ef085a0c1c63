import { Undo2 } from 'lucide-react';
import { useMemo } from 'react';
import { useRevalidator } from 'react-router';
import type { GameChangeSummary, PriceChange, StudioGameReview } from '#common/api/game-changes.schema.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { toast } from '../../shell/toast-store.ts';
import { Button } from '../../ui/button.tsx';
import { usePendingAction } from '../../ui/use-pending-action.ts';
import { statsFormat } from './stats-format.ts';

/** What a change touches, in words: the form's fields, and each item's new price or other change. */
export function ChangeSummaryList({ changes, namespace }: { changes: GameChangeSummary; namespace: 'studio' | 'console' }) {
  const { t } = useTranslation('studio');
  const locale = useLocale();
  const format = useMemo(() => statsFormat(locale), [locale]);
  return (
    <ul className="list-disc space-y-1 ps-5 text-sm" data-testid={`${namespace}-change-fields`}>
      {changes.fields
        .filter((field) => field !== 'items')
        .map((field) => (
          <li key={field}>{t(`changes.field.${field}`)}</li>
        ))}
      {changes.items.map((item) => (
        <li key={item.sku} data-testid={`change-item-${item.sku}`}>
          {item.what.includes('new') && item.after
            ? t('changes.item.new', { sku: item.sku, price: format.money(item.after.price, item.after.currency) })
            : item.what.includes('removed')
              ? t('changes.item.removed', { sku: item.sku })
              : item.what.includes('price') && item.before && item.after
                ? t('changes.item.price', {
                    sku: item.sku,
                    from: format.money(item.before.price, item.before.currency),
                    to: format.money(item.after.price, item.after.currency),
                  })
                : t('changes.item.other', { sku: item.sku })}
        </li>
      ))}
    </ul>
  );
}

/** How a live game's newest change stands (decision 112): waiting for review (with a way to take it back), approved, or rejected with the reason. */
export function GameReviewStatus({ gameId, review }: { gameId: number; review: StudioGameReview | null }) {
  const { t } = useTranslation('studio');
  const revalidator = useRevalidator();
  const { pending, run } = usePendingAction();
  if (!review) return <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('changes.liveHint')}</p>;
  const withdraw = () =>
    run('withdraw', async () => {
      await api.delete(`/studio/games/${gameId}/change` as never);
      toast.add({ title: t('changes.withdrawn'), color: 'success' });
      await revalidator.revalidate();
    });
  const tone =
    review.status === 'rejected'
      ? 'border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950/40 dark:text-red-200'
      : 'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-200';
  if (review.status === 'approved')
    return (
      <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="studio-review-status" data-status="approved">
        {t('changes.approved')} {t('changes.liveHint')}
      </p>
    );
  return (
    <div className={`space-y-2 rounded-lg border px-3 py-2 ${tone}`} data-testid="studio-review-status" data-status={review.status}>
      <p className="font-medium">{t(review.status === 'pending' ? 'changes.pending' : 'changes.rejected')}</p>
      {review.reason ? <p className="text-sm">{t('changes.reason', { reason: review.reason })}</p> : null}
      <ChangeSummaryList changes={review.changes} namespace="studio" />
      {review.status === 'pending' ? (
        <Button type="button" variant="secondary" size="sm" disabled={pending !== null} onClick={withdraw} data-testid="studio-withdraw-change">
          <Undo2 aria-hidden />
          {t('changes.withdraw')}
        </Button>
      ) : null}
    </div>
  );
}

/** The game's item prices as approved changes set them, newest first. */
export function PriceHistory({ changes }: { changes: PriceChange[] }) {
  const { t } = useTranslation('studio');
  const locale = useLocale();
  const format = useMemo(() => statsFormat(locale), [locale]);
  return (
    <section className="space-y-2" aria-labelledby="studio-price-history" data-testid="studio-price-history">
      <h3 id="studio-price-history" className="font-semibold">
        {t('changes.prices.heading')}
      </h3>
      {changes.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('changes.prices.empty')}</p>
      ) : (
        <table className="w-full text-sm">
          <thead>
            <tr className="text-left">
              <th className="py-1 pe-3 font-medium">{t('changes.prices.when')}</th>
              <th className="py-1 pe-3 font-medium">{t('changes.prices.item')}</th>
              <th className="py-1 pe-3 font-medium">{t('changes.prices.old')}</th>
              <th className="py-1 font-medium">{t('changes.prices.new')}</th>
            </tr>
          </thead>
          <tbody>
            {changes.map((change) => (
              <tr key={`${change.changedAt}-${change.sku}`} className="border-t border-zinc-200 dark:border-zinc-800">
                <td className="py-1 pe-3 tabular-nums">{change.changedAt.slice(0, 16).replace('T', ' ')}</td>
                <td className="py-1 pe-3">{change.sku}</td>
                <td className="py-1 pe-3 tabular-nums">
                  {change.oldPrice === null ? t('changes.prices.newItem') : format.money(change.oldPrice, change.oldCurrency ?? change.currency)}
                </td>
                <td className="py-1 tabular-nums">{format.money(change.newPrice, change.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('changes.prices.hint')}</p>
    </section>
  );
}
