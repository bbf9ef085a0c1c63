import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { ConsoleOverview as Overview } from '#common/api/console-ops.schema.ts';
import { localePath } from '#common/locales.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { cn } from '../../ui/cn.ts';
import { focusRing } from '../../ui/focus.ts';

const CARDS = [
  { key: 'buildsWaiting', page: 'reviews' },
  { key: 'changesWaiting', page: 'reviews' },
  { key: 'members', page: 'members' },
  { key: 'disabledMembers', page: 'members' },
  { key: 'dataExportsPending', page: 'members' },
  { key: 'deletionsPending', page: 'members' },
  { key: 'paidOrders', page: 'orders' },
  { key: 'refundedOrders', page: 'orders' },
  { key: 'auditEntries', page: 'audit' },
] as const;

/** The Console's first page (decision 098): counts that need an operator's eye, each a link to its page. */
export function ConsoleOverview() {
  const { t } = useTranslation('console');
  const locale = useLocale();
  const [overview, setOverview] = useState<Overview | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let active = true;
    api.get('/console/overview/').then(
      ({ data }) => active && setOverview(data),
      () => active && setFailed(true),
    );
    return () => {
      active = false;
    };
  }, []);
  const number = new Intl.NumberFormat(locale);
  return (
    <section className="space-y-4" aria-labelledby="console-overview-heading">
      <div className="space-y-1">
        <h2 id="console-overview-heading" className="text-xl font-semibold tracking-tight">
          {t('ops.overview.heading')}
        </h2>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('ops.overview.intro')}</p>
      </div>
      {failed && <p className="text-red-700 dark:text-red-400">{t('ops.loadFailed')}</p>}
      <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-busy={overview === null && !failed} data-testid="console-overview">
        {CARDS.map(({ key, page }) => (
          <li key={key}>
            <Link
              to={localePath(locale, `/console/${page}`)}
              className={cn(
                'block rounded-xl border border-zinc-200 p-4 hover:border-green-600 hover:bg-green-50 dark:border-zinc-800 dark:hover:border-green-500 dark:hover:bg-green-950/30',
                focusRing,
              )}
            >
              {/* The name starts with what the card shows (axe label-content-name-mismatch, decision 121). */}
              <span className="block text-sm text-zinc-600 dark:text-zinc-400">{t(`ops.overview.${key}`)}</span>
              <span className="block text-2xl font-semibold tabular-nums" data-testid={`overview-${key}`}>
                {overview ? number.format(overview[key]) : '…'}
              </span>
              <span className="sr-only">{t('ops.overview.open', { page: t(`nav.${page}`) })}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
