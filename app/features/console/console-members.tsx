import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { ConsoleMemberDetail, ConsoleMemberSummary } from '#common/api/console-ops.schema.ts';
import { localePath } from '#common/locales.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { formatList } from '../../i18n/list-format.ts';
import { api } from '../../lib/api-client.ts';
import { toast } from '../../shell/toast-store.ts';
import { Button } from '../../ui/button.tsx';
import { cn } from '../../ui/cn.ts';
import { focusRing } from '../../ui/focus.ts';
import { cellClass, failureText, formatDateTime, headClass, tableClass, tableFrame } from './console-format.ts';
import { ScrollRegion } from '../../ui/scroll-region.tsx';
import { detailRow } from './console-orders.tsx';
import { ConsoleSearch } from './console-search.tsx';
import { ReasonDialog } from './reason-dialog.tsx';
import { StudioTermsPanel } from '../earnings/studio-terms-panel.tsx';

/** A closed account is erased this long after its member asked (decision 147). */
const DELETION_GRACE_MS = 30 * 24 * 60 * 60 * 1000;

/** The Console's members (decision 098): look-up, sign-in methods and failures, lock-out, disabling. */
export function ConsoleMembers() {
  const { t } = useTranslation('console');
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const selected = params.get('member');
  // Answers keep what they answer: a newer search or member shows nothing stale meanwhile.
  const [found, setFound] = useState<{ q: string; items: ConsoleMemberSummary[] | null; error: string | null } | null>(null);
  const [loaded, setLoaded] = useState<ConsoleMemberDetail | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const members = q && found?.q === q ? found.items : null;
  const error = formError ?? (q && found?.q === q ? found.error : null);
  const detail = loaded && String(loaded.member.id) === selected ? loaded : null;

  useEffect(() => {
    if (!q) return;
    let active = true;
    api.get('/console/members/', { query: { q } }).then(
      ({ data }) => active && setFound({ q, items: data.items, error: null }),
      (failure: unknown) => active && setFound({ q, items: null, error: failureText(failure, 'q', t('ops.loadFailed')) }),
    );
    return () => {
      active = false;
    };
  }, [q, t]);

  useEffect(() => {
    if (!selected) return;
    let active = true;
    api.get(`/console/members/${encodeURIComponent(selected)}`).then(
      ({ data }) => active && setLoaded(data),
      (failure: unknown) => active && toast.add({ title: failureText(failure, 'user_id', t('ops.loadFailed')), color: 'error' }),
    );
    return () => {
      active = false;
    };
  }, [selected, t]);

  const search = (value: string) => {
    if (!value) return setFormError(t('ops.errors.queryEmpty'));
    setFormError(null);
    setParams({ q: value });
  };

  return (
    <section className="space-y-5" aria-labelledby="console-members-heading">
      <h2 id="console-members-heading" className="text-xl font-semibold tracking-tight">
        {t('ops.members.heading')}
      </h2>
      <ConsoleSearch list="members" initial={q} testId="member-search" onSearch={search} />
      <div aria-live="polite">
        {error && <p className="text-red-700 dark:text-red-400">{error}</p>}
        {members?.length === 0 && <p className="text-zinc-600 dark:text-zinc-400">{t('ops.members.empty')}</p>}
      </div>
      {detail && <MemberDetail detail={detail} onChange={setLoaded} />}
      {members && members.length > 0 && (
        <ScrollRegion label={t('ops.members.heading')} className={tableFrame}>
          <table className={tableClass} data-testid="member-results">
            <thead className="bg-zinc-50 dark:bg-zinc-900">
              <tr>
                <th className={headClass}>{t('ops.members.id')}</th>
                <th className={headClass}>{t('ops.members.username')}</th>
                <th className={headClass}>{t('ops.members.email')}</th>
                <th className={headClass}>{t('ops.members.phone')}</th>
                <th className={headClass}>{t('ops.members.state')}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {members.map((member) => (
                <tr key={member.id} data-testid="member-row">
                  <td className={cellClass}>
                    <button
                      type="button"
                      onClick={() => setParams({ q, member: String(member.id) })}
                      className={cn('font-mono text-green-800 underline-offset-2 hover:underline dark:text-green-300', focusRing)}
                    >
                      #{member.id}
                    </button>
                  </td>
                  <td className={cellClass}>{member.username ?? '—'}</td>
                  <td className={cellClass}>{member.email ?? '—'}</td>
                  <td className={cellClass}>{member.phone ?? '—'}</td>
                  <td className={cellClass}>
                    <MemberState member={member} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </section>
  );
}

function MemberState({ member }: { member: ConsoleMemberSummary }) {
  const { t } = useTranslation('console');
  const disabled = member.disabledAt !== null;
  // Closed by its member to delete it, or erased (decision 147).
  const closed = member.deletionRequestedAt !== null || member.erasedAt !== null;
  return (
    <span
      data-testid="member-state"
      data-disabled={disabled}
      data-closed={closed}
      className={cn(
        'rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap',
        disabled || closed ? 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200' : 'bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-200',
      )}
    >
      {t(
        member.erasedAt !== null
          ? 'ops.members.erased'
          : member.deletionRequestedAt !== null
            ? 'ops.members.deletionPending'
            : disabled
              ? 'ops.members.disabled'
              : member.isGuest
                ? 'ops.members.guest'
                : 'ops.members.active',
      )}
    </span>
  );
}

function MemberDetail({ detail, onChange }: { detail: ConsoleMemberDetail; onChange: (detail: ConsoleMemberDetail) => void }) {
  const { t } = useTranslation('console');
  const locale = useLocale();
  const [dialog, setDialog] = useState<'disable' | 'enable' | 'export' | 'two-factor' | 'restore' | 'erase' | null>(null);
  const [clearing, setClearing] = useState(false);
  const { member, signIn, failures } = detail;
  const name = member.username ?? member.nickname ?? `#${member.id}`;
  const disabled = member.disabledAt !== null;
  const yesNo = (value: boolean) => t(value ? 'ops.members.yes' : 'ops.members.no');

  const act = async (action: 'disable' | 'enable' | 'export' | 'two-factor' | 'restore' | 'erase', reason: string) => {
    const { data } =
      action === 'erase'
        ? await api.post(`/console/members/${member.id}/erase`, { reason })
        : action === 'restore'
          ? await api.post(`/console/members/${member.id}/cancel-deletion`, { reason })
          : action === 'disable'
            ? await api.post(`/console/members/${member.id}/disable`, { reason })
            : action === 'enable'
              ? await api.post(`/console/members/${member.id}/enable`, { reason })
              : action === 'export'
                ? await api.post(`/console/members/${member.id}/data-export`, { reason })
                : await api.post(`/console/members/${member.id}/two-factor/remove`, { reason });
    onChange(data);
    const done = {
      disable: 'ops.members.disabledDone',
      enable: 'ops.members.enabledDone',
      export: 'ops.members.exportRequested',
      'two-factor': 'ops.members.twoFactorRemoved',
      restore: 'ops.members.restored',
      erase: 'ops.members.erasedDone',
    };
    toast.add({ title: t(done[action]), color: 'success' });
  };
  const dialogText = {
    disable: { title: 'ops.members.disableTitle', body: 'ops.members.disableBody', confirm: 'ops.members.disable' },
    enable: { title: 'ops.members.enableTitle', body: 'ops.members.enableBody', confirm: 'ops.members.enable' },
    export: { title: 'ops.members.exportTitle', body: 'ops.members.exportBody', confirm: 'ops.members.export' },
    'two-factor': { title: 'ops.members.twoFactorTitle', body: 'ops.members.twoFactorBody', confirm: 'ops.members.twoFactorRemove' },
    restore: { title: 'ops.members.restoreTitle', body: 'ops.members.restoreBody', confirm: 'ops.members.restore' },
    erase: { title: 'ops.members.eraseTitle', body: 'ops.members.eraseBody', confirm: 'ops.members.erase' },
  }[dialog ?? 'disable'];
  const clearLockout = async () => {
    setClearing(true);
    try {
      const { data } = await api.post(`/console/members/${member.id}/clear-lockout`);
      onChange(data);
      toast.add({ title: t('ops.members.lockoutCleared'), color: 'success' });
    } catch (failure) {
      toast.add({ title: failureText(failure, '', t('ops.loadFailed')), color: 'error' });
    } finally {
      setClearing(false);
    }
  };

  return (
    <article
      className="space-y-5 rounded-xl border border-zinc-200 p-4 dark:border-zinc-800"
      aria-labelledby="member-detail-heading"
      data-testid="member-detail"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id="member-detail-heading" className="text-base font-semibold">
          {name} <span className="font-mono text-sm text-zinc-600 dark:text-zinc-400">#{member.id}</span>
        </h3>
        <MemberState member={member} />
      </div>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        {detailRow(t('ops.members.nickname'), member.nickname ?? '—')}
        {detailRow(t('ops.members.email'), member.email ?? '—')}
        {detailRow(t('ops.members.phone'), member.phone ?? '—')}
        {detailRow(t('ops.members.joined'), formatDateTime(member.createdAt, locale))}
        {disabled && detailRow(t('ops.members.disabled'), formatDateTime(member.disabledAt!, locale))}
        {member.deletionRequestedAt !== null &&
          detailRow(
            t('ops.members.deletionPending'),
            t('ops.members.deletionDates', {
              asked: formatDateTime(member.deletionRequestedAt, locale),
              erased: formatDateTime(new Date(Date.parse(member.deletionRequestedAt) + DELETION_GRACE_MS).toISOString(), locale),
            }),
          )}
        {member.erasedAt !== null && detailRow(t('ops.members.erased'), formatDateTime(member.erasedAt, locale))}
      </dl>

      <div>
        <h4 className="mb-1 text-sm font-semibold">{t('ops.members.signIn')}</h4>
        <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]" data-testid="member-sign-in">
          {detailRow(t('ops.members.password'), yesNo(signIn.password))}
          {detailRow(
            t('ops.members.passkeys'),
            signIn.passkeys.length === 0
              ? t('ops.members.none')
              : formatList(
                  locale,
                  signIn.passkeys.map((p) => p.name ?? formatDateTime(p.createdAt, locale)),
                ),
          )}
          {detailRow(
            t('ops.members.social'),
            signIn.social.length === 0
              ? t('ops.members.none')
              : formatList(
                  locale,
                  signIn.social.map((s) => (s.displayName ? t('ops.members.socialAccount', { platform: s.platform, name: s.displayName }) : s.platform)),
                ),
          )}
          {detailRow(t('ops.members.whatsapp'), signIn.whatsappPhone ?? t('ops.members.none'))}
          {detailRow(t('ops.members.device'), yesNo(signIn.device))}
          {detailRow(t('ops.members.sessions'), String(signIn.sessions))}
          {detailRow(t('ops.members.twoFactor'), yesNo(signIn.twoFactor))}
        </dl>
      </div>

      <div className="space-y-2">
        <h4 className="text-sm font-semibold">{t('ops.members.failures')}</h4>
        <p
          className={cn('text-sm', detail.locked ? 'text-red-700 dark:text-red-400' : 'text-zinc-600 dark:text-zinc-400')}
          data-testid="member-locked"
          data-locked={detail.locked}
        >
          {t(detail.locked ? 'ops.members.locked' : 'ops.members.notLocked')}
        </p>
        {failures.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('ops.members.noFailures')}</p>
        ) : (
          <ScrollRegion label={t('ops.members.failures')} className={tableFrame}>
            <table className={tableClass} data-testid="member-failures">
              <thead className="bg-zinc-50 dark:bg-zinc-900">
                <tr>
                  <th className={headClass}>{t('ops.members.failureAt')}</th>
                  <th className={headClass}>{t('ops.members.failureMethod')}</th>
                  <th className={headClass}>{t('ops.members.failureIdentifier')}</th>
                  <th className={headClass}>{t('ops.members.failureAddress')}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
                {failures.map((failure, index) => (
                  <tr key={index}>
                    <td className={cellClass}>{formatDateTime(failure.at, locale)}</td>
                    <td className={cellClass}>{failure.method}</td>
                    <td className={cellClass}>{failure.identifier}</td>
                    <td className={cn(cellClass, 'font-mono')}>{failure.address}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </div>

      <div className="space-y-2">
        <h4 className="text-sm font-semibold">{t('ops.members.exports')}</h4>
        {detail.dataExports.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('ops.members.noExports')}</p>
        ) : (
          <ul className="space-y-1 text-sm" data-testid="member-exports">
            {detail.dataExports.map((archive) => (
              <li key={archive.id} className="flex flex-wrap items-center gap-x-3" data-status={archive.status}>
                <span>{formatDateTime(archive.requestedAt, locale)}</span>
                <span className="text-zinc-600 dark:text-zinc-400">
                  {t(`ops.members.exportStatus.${archive.status}`)}
                  {archive.byOperator ? ` · ${t('ops.members.exportByOperator')}` : ''}
                </span>
                {archive.downloadUrl ? (
                  <a href={archive.downloadUrl} download className="text-blue-700 underline dark:text-blue-400">
                    {t('ops.members.exportDownload')}
                  </a>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </div>

      <StudioTermsPanel studioUserId={member.id} />

      <div className="flex flex-wrap gap-2">
        {member.deletionRequestedAt !== null ? (
          <Button variant="secondary" onClick={() => setDialog('restore')} data-testid="restore-open">
            {t('ops.members.restore')}
          </Button>
        ) : null}
        {member.deletionRequestedAt !== null ? (
          <Button variant="danger" onClick={() => setDialog('erase')} data-testid="erase-open">
            {t('ops.members.erase')}
          </Button>
        ) : null}
        {signIn.twoFactor ? (
          <Button variant="secondary" onClick={() => setDialog('two-factor')} data-testid="two-factor-remove-open">
            {t('ops.members.twoFactorRemove')}
          </Button>
        ) : null}
        <Button variant="secondary" onClick={() => setDialog('export')} data-testid="export-open">
          {t('ops.members.export')}
        </Button>
        <Button variant="secondary" onClick={clearLockout} disabled={clearing} data-testid="clear-lockout">
          {t('ops.members.clearLockout')}
        </Button>
        {disabled ? (
          <Button onClick={() => setDialog('enable')} data-testid="enable-open">
            {t('ops.members.enable')}
          </Button>
        ) : (
          <Button variant="danger" onClick={() => setDialog('disable')} data-testid="disable-open">
            {t('ops.members.disable')}
          </Button>
        )}
        <Button variant="ghost" asChild>
          <Link to={`${localePath(locale, '/console/audit')}?target_type=member&target_id=${member.id}`}>{t('ops.members.auditLink')}</Link>
        </Button>
      </div>
      <ReasonDialog
        open={dialog !== null}
        onOpenChange={(open) => !open && setDialog(null)}
        title={t(dialogText.title, { name })}
        description={t(dialogText.body)}
        confirmLabel={t(dialogText.confirm)}
        testId="member-dialog"
        destructive={dialog === 'disable' || dialog === 'two-factor'}
        onConfirm={(reason) => act(dialog ?? 'disable', reason)}
      />
    </article>
  );
}
