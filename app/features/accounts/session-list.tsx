import { Monitor } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { SignedInSession } from '#common/api/sessions.schema.ts';
import type { Translate } from '#common/i18n/translator.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { formatDate } from '../../lib/format-date.ts';
import { confirm } from '../../shell/confirm-store.ts';
import { toast } from '../../shell/toast-store.ts';
import { Button } from '../../ui/button.tsx';
import { messageOf } from '../../ui/form-errors.ts';
import { usePendingAction } from '../../ui/use-pending-action.ts';

/** "Chrome on Windows" in the page's language, from what the server read in the User-Agent. */
function deviceName(item: SignedInSession, t: Translate): string {
  return t('sessions.onSystem', { browser: item.browser ?? t('sessions.unknownBrowser'), system: item.system ?? t('sessions.unknownSystem') });
}

/** Asks before ending sessions: the device or devices are signed out at once. */
function confirmEnding(t: Translate, title: string, message: string, confirmButton: string): Promise<boolean> {
  return confirm({ title, message, confirmButton, cancelButton: t('sessions.cancel'), color: 'warning', icon: 'warning', type: 'warning' });
}

/** /user/profile/sessions: where the member is signed in, with a button to end each other session, or all of them (decision 142). */
export function SessionList() {
  const { t } = useTranslation('accounts');
  const locale = useLocale();
  const [items, setItems] = useState<SignedInSession[] | null>(null);
  const { pending, run } = usePendingAction();

  // Bumped after every change: the list is read again from the server.
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((n) => n + 1);
  useEffect(() => {
    let active = true;
    api.get('/session/list/').then(
      ({ data }) => active && setItems(data.items),
      (failure: unknown) => toast.add({ title: messageOf(failure, t('sessions.failed')), color: 'error' }),
    );
    return () => {
      active = false;
    };
    // oxlint-disable-next-line react/exhaustive-effect-dependencies -- `version` is the trigger: each change reads the list again
  }, [t, version]);

  const endOne = (item: SignedInSession) =>
    run(`end-${item.id}`, async () => {
      const name = deviceName(item, t);
      if (!(await confirmEnding(t, t('sessions.endTitle'), t('sessions.endBody', { name }), t('sessions.end')))) return;
      try {
        await api.delete(`/session/${item.id}`);
        toast.add({ title: t('sessions.ended'), color: 'success' });
      } catch (failure) {
        toast.add({ title: messageOf(failure, t('sessions.failed')), color: 'error' });
      }
      reload();
    });

  const endOthers = () =>
    run('end-others', async () => {
      if (!(await confirmEnding(t, t('sessions.endOthersTitle'), t('sessions.endOthersBody'), t('sessions.endOthers')))) return;
      try {
        const { data } = await api.post('/session/end-others/');
        toast.add({ title: t('sessions.endedOthers', { count: data.ended }), color: 'success' });
      } catch (failure) {
        toast.add({ title: messageOf(failure, t('sessions.failed')), color: 'error' });
      }
      reload();
    });

  const others = (items ?? []).filter((item) => !item.current).length;
  return (
    <div className="space-y-4" data-testid="session-list">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('sessions.intro')}</p>
      <ul
        aria-label={t('sessions.listLabel')}
        className="divide-y divide-zinc-200 overflow-hidden rounded-xl border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
      >
        {(items ?? []).map((item) => (
          <li key={item.id} className="flex items-center gap-3 px-4 py-3" data-testid="session-item" data-current={item.current}>
            <Monitor className="size-5 shrink-0 text-zinc-500" aria-hidden />
            <div className="min-w-0 flex-1">
              <p className="truncate font-medium" data-testid="session-device">
                {deviceName(item, t)}
                {item.current ? (
                  <span className="ms-2 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-800 dark:bg-emerald-900 dark:text-emerald-100">
                    {t('sessions.thisDevice')}
                  </span>
                ) : null}
              </p>
              <p className="text-xs text-zinc-600 dark:text-zinc-400">
                {t('sessions.signedInWith', { method: t(`sessions.methods.${item.method}`) })} ·{' '}
                {t('sessions.signedInAt', { date: formatDate(item.createdAt, locale) })} ·{' '}
                {t('sessions.lastUsed', { date: formatDate(item.lastUsedAt, locale) })}
              </p>
            </div>
            {item.current ? null : (
              <Button
                variant="secondary"
                size="sm"
                onClick={() => endOne(item)}
                disabled={pending !== null}
                aria-label={t('sessions.endLabel', { name: deviceName(item, t) })}
                data-testid="session-end"
              >
                {t('sessions.end')}
              </Button>
            )}
          </li>
        ))}
      </ul>
      {items && others === 0 ? <p className="text-sm">{t('sessions.noOthers')}</p> : null}
      <p className="text-xs text-zinc-600 dark:text-zinc-400">{t('sessions.noPlace')}</p>
      {others > 0 ? (
        <Button variant="secondary" onClick={endOthers} disabled={pending !== null} data-testid="session-end-others">
          {t('sessions.endOthers')}
        </Button>
      ) : null}
    </div>
  );
}
