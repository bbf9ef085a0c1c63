import type { Translate } from '#common/i18n/translator.ts';
import type { Locale } from '#common/locales.ts';
import { type FormEvent, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { AuditPage } from '#common/api/console-ops.schema.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { Button } from '../../ui/button.tsx';
import { cn } from '../../ui/cn.ts';
import { focusRing } from '../../ui/focus.ts';
import { TextField } from '../../ui/form-field.tsx';
import { cellClass, failureText, formatDateTime, headClass, tableClass, tableFrame } from './console-format.ts';
import { ScrollRegion } from '../../ui/scroll-region.tsx';

const TARGET_TYPES = ['order', 'member', 'game', 'build', 'article', 'page'] as const;
type TargetType = (typeof TARGET_TYPES)[number];
type Entry = AuditPage['entries'][number];

/** The audit log (decisions 095, 098): newest first, a page at a time, optionally for one target. Read only. */
export function ConsoleAudit() {
  const { t } = useTranslation('console');
  const locale = useLocale();
  const [params, setParams] = useSearchParams();
  const targetType = TARGET_TYPES.find((type) => type === params.get('target_type')) ?? null;
  const targetId = params.get('target_id') ?? '';
  const [type, setType] = useState<TargetType | ''>(targetType ?? '');
  const [id, setId] = useState(targetId);
  const [entries, setEntries] = useState<Entry[] | null>(null);
  const [nextBefore, setNextBefore] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  const more = async (before: number) => {
    setLoading(true);
    setError(null);
    try {
      const { data } = await api.get('/console/audit/', {
        query: { before, ...(targetType && targetId ? { target_type: targetType, target_id: targetId } : {}) },
      });
      setEntries((current) => [...(current ?? []), ...data.entries]);
      setNextBefore(data.nextBefore);
    } catch (failure) {
      setError(failureText(failure, 'target_id', t('ops.loadFailed')));
    } finally {
      setLoading(false);
    }
  };

  useEffect(() => {
    let active = true;
    api.get('/console/audit/', { query: targetType && targetId ? { target_type: targetType, target_id: targetId } : {} }).then(
      ({ data }) => {
        if (!active) return;
        setEntries(data.entries);
        setNextBefore(data.nextBefore);
      },
      (failure: unknown) => active && setError(failureText(failure, 'target_id', t('ops.loadFailed'))),
    );
    return () => {
      active = false;
    };
  }, [targetType, targetId, t]);

  const filter = (event: FormEvent) => {
    event.preventDefault();
    setParams(type && id.trim() ? { target_type: type, target_id: id.trim() } : {});
  };

  return (
    <section className="space-y-5" aria-labelledby="console-audit-heading">
      <div className="space-y-1">
        <h2 id="console-audit-heading" className="text-xl font-semibold tracking-tight">
          {t('ops.audit.heading')}
        </h2>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('ops.audit.intro')}</p>
      </div>
      <form onSubmit={filter} className="flex flex-col gap-3 sm:flex-row sm:items-end" aria-label={t('ops.audit.filter')} data-testid="audit-filter">
        <div className="space-y-1.5">
          <label htmlFor="audit-target-type" className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
            {t('ops.audit.targetType')}
          </label>
          <select
            id="audit-target-type"
            value={type}
            onChange={(e) => setType(e.target.value as TargetType | '')}
            className={cn(
              'block h-11 w-full rounded-lg border border-zinc-300 bg-white px-3 text-base sm:h-10 sm:w-40 sm:text-sm dark:border-zinc-700 dark:bg-zinc-950',
              focusRing,
            )}
          >
            <option value="">{t('ops.audit.anyTarget')}</option>
            {TARGET_TYPES.map((target) => (
              <option key={target} value={target}>
                {t(`ops.audit.targets.${target}`)}
              </option>
            ))}
          </select>
        </div>
        <TextField className="flex-1" label={t('ops.audit.targetId')} name="target_id" value={id} maxLength={100} onChange={(e) => setId(e.target.value)} />
        <div className="flex gap-2">
          <Button type="submit">{t('ops.audit.apply')}</Button>
          {targetType && (
            <Button
              variant="secondary"
              onClick={() => {
                setType('');
                setId('');
                setParams({});
              }}
            >
              {t('ops.audit.clear')}
            </Button>
          )}
        </div>
      </form>
      <div aria-live="polite" aria-busy={loading}>
        {error && <p className="text-red-700 dark:text-red-400">{error}</p>}
        {entries?.length === 0 && <p className="text-zinc-600 dark:text-zinc-400">{t('ops.audit.empty')}</p>}
      </div>
      {entries && entries.length > 0 && (
        <ScrollRegion label={t('ops.audit.heading')} className={tableFrame}>
          <table className={tableClass} data-testid="audit-entries">
            <thead className="bg-zinc-50 dark:bg-zinc-900">
              <tr>
                <th className={headClass}>{t('ops.audit.when')}</th>
                <th className={headClass}>{t('ops.audit.operator')}</th>
                <th className={headClass}>{t('ops.audit.action')}</th>
                <th className={headClass}>{t('ops.audit.target')}</th>
                <th className={headClass}>{t('ops.audit.detail')}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {entries.map((entry) => (
                <tr key={entry.id} data-testid="audit-entry" data-action={entry.action}>
                  <td className={cn(cellClass, 'whitespace-nowrap')}>{formatDateTime(entry.createdAt, locale)}</td>
                  <td className={cellClass}>{entry.operator.username ?? `#${entry.operator.id}`}</td>
                  <td className={cellClass}>
                    {KNOWN_ACTIONS.has(entry.action) ? (
                      t(`ops.audit.actions.${entry.action.replace('.', '_')}`)
                    ) : (
                      <span className="font-mono">{entry.action}</span>
                    )}
                  </td>
                  <td className={cellClass}>
                    {TARGET_TYPES.includes(entry.target.type as TargetType) ? t(`ops.audit.targets.${entry.target.type as TargetType}`) : entry.target.type}{' '}
                    <span className="font-mono break-all">{entry.target.id}</span>
                  </td>
                  <td className={cn(cellClass, 'break-words')}>{detailText(entry.detail, t, locale)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      {nextBefore !== null && (
        <Button variant="secondary" onClick={() => void more(nextBefore)} disabled={loading} data-testid="audit-more">
          {t('ops.audit.more')}
        </Button>
      )}
    </section>
  );
}

/** The actions and detail fields the Console names in words (decision 126); others keep their codes. */
const KNOWN_ACTIONS = new Set([
  'article.create',
  'article.delete',
  'article.image',
  'article.update',
  'build.approve',
  'build.reject',
  'build.rollback',
  'game.feature',
  'game.republish',
  'game.unfeature',
  'game.unpublish',
  'game_change.approve',
  'game_change.reject',
  'item.price_change',
  'member.clear_lockout',
  'member.data_export',
  'member.two_factor_remove',
  'member.disable',
  'member.enable',
  'order.refund',
  'page.create',
  'page.delete',
  'page.update',
  'studio.revenue_terms',
  'studio.ledger_correction',
  'payout.approve',
  'payout.reject',
  'payouts.propose',
  'payout_details.change',
]);
const KNOWN_FIELDS = new Set([
  'exportId',
  'addresses',
  'amount',
  'appId',
  'changeId',
  'currency',
  'fields',
  'from',
  'name',
  'previousLiveBuildId',
  'price',
  'publishedAt',
  'reason',
  'requestedBy',
  'scheduled',
  'sharePercent',
  'sku',
  'slug',
  'startsAt',
  'submittedBy',
  'title',
  'to',
  'version',
]);

/**
 * The entry's detail in words (decision 126): its reason first, then each other field with its name
 * in the page's language; lists in the locale's list form, nested values as "name value".
 */
function detailText(detail: Record<string, unknown>, t: Translate, locale: Locale): string {
  const list = new Intl.ListFormat(locale, { type: 'unit' });
  const label = (key: string) => (KNOWN_FIELDS.has(key) ? t(`ops.audit.fields.${key}`) : key);
  const value = (v: unknown): string =>
    v === null || v === undefined
      ? '—'
      : typeof v === 'boolean'
        ? t(v ? 'ops.audit.yes' : 'ops.audit.no')
        : Array.isArray(v)
          ? list.format(v.map(value))
          : typeof v === 'object'
            ? list.format(Object.entries(v as Record<string, unknown>).map(([k, inner]) => `${label(k)} ${value(inner)}`))
            : String(v);
  const { reason, ...rest } = detail;
  const others = Object.entries(rest).map(([key, v]) => t('ops.audit.field', { name: label(key), value: value(v) }));
  return [typeof reason === 'string' ? reason : null, ...others].filter(Boolean).join(' · ');
}
