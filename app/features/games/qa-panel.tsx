import { FlaskConical, RotateCcw, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { GameConfig } from '#common/api/catalogue.schema.ts';
import { type Locale, localePath } from '#common/locales.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { Button } from '../../ui/button.tsx';
import { cn } from '../../ui/cn.ts';
import { focusRing } from '../../ui/focus.ts';
import { useOverflow } from '../../ui/scroll-region.tsx';
import { messageOf } from '../../ui/form-errors.ts';
import { session } from '../accounts/session.ts';
import { usePendingAction } from '../../ui/use-pending-action.ts';
import { useSession } from '../accounts/use-session.ts';
import { observeGameTraffic } from './game-traffic.ts';
import { logTime, logValue, type QaLogEntry, withTraffic } from './qa-log.ts';

/** Which checkout a purchase opens on this portal (AppLoadContext's site.payments). */
export type QaPayments = 'sandbox' | 'xsolla-sandbox' | 'xsolla' | 'off';

const SANDBOX_CARDS = [
  ['4242 4242 4242 4242', 'paid'],
  ['4000 0000 0000 0002', 'declined'],
  ['4000 0000 0000 3220', 'challenge'],
] as const;

function randomText(alphabet: string, length: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(length)), (byte) => alphabet[byte % alphabet.length]).join('');
}

/**
 * The QA mode's panel beside the game (docs/game-sdk.md, "QA mode"): who the game sees (a fresh
 * guest, or a throw-away member made through the API a guest uses to secure the account), which
 * checkout purchases open, a note on ads, and the log of every message between game and portal.
 */
export function QaPanel({
  locale,
  game,
  live,
  payments,
  onRestart,
}: {
  locale: Locale;
  game: GameConfig;
  /** Whether players can open the game: a preview's draft has no play page to link to yet (decision 119). */
  live: boolean;
  payments: QaPayments;
  onRestart: () => void;
}) {
  const { t } = useTranslation('qa');
  const { userInfo, isMember } = useSession();
  const { pending, run } = usePendingAction();
  const [log, setLog] = useState<QaLogEntry[]>([]);
  const [credentials, setCredentials] = useState<{ username: string; password: string } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const list = useRef<HTMLDivElement>(null);
  const logOverflows = useOverflow(list);

  useEffect(
    () =>
      observeGameTraffic((traffic) => {
        // The newest line stays in view, as in a console, unless the reader scrolled up.
        const element = list.current;
        const following = !element || element.scrollHeight - element.scrollTop - element.clientHeight < 24;
        setLog((current) => withTraffic(current, traffic));
        if (following) requestAnimationFrame(() => element?.scrollTo({ top: element.scrollHeight }));
      }),
    [],
  );

  const freshAccount = (id: 'guest' | 'member') =>
    run(id, async () => {
      setFailure(null);
      try {
        await session.logout();
        await session.signInAnonymously();
        if (id === 'member') {
          const username = `qa_${randomText('abcdefghijklmnopqrstuvwxyz0123456789', 10)}`;
          const password = `qa-${randomText('ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789', 20)}`;
          await session.becomeMember(username, password);
          setCredentials({ username, password });
        } else setCredentials(null);
        onRestart();
      } catch (error) {
        setFailure(t('player.failed', { message: messageOf(error, t('errors:generic')) }));
      }
    });

  const who = !userInfo
    ? t('player.none')
    : isMember
      ? t('player.member', { name: userInfo.nickname ?? `ID:${userInfo.uid}`, uid: userInfo.uid })
      : t('player.guest', { uid: userInfo.uid });
  const heading = 'text-sm font-semibold text-zinc-900 dark:text-zinc-100';
  const section = 'flex flex-col gap-2 border-t border-zinc-200 p-3 dark:border-zinc-800';
  return (
    <aside
      aria-label={t('panel')}
      className="flex flex-col bg-white text-sm text-zinc-800 lg:w-[26rem] lg:shrink-0 lg:overflow-y-auto lg:border-l lg:border-zinc-200 dark:bg-zinc-900 dark:text-zinc-200 dark:lg:border-zinc-800"
      data-testid="qa-panel"
    >
      <div className="flex flex-col gap-1 bg-amber-100 p-3 text-amber-950 dark:bg-amber-950 dark:text-amber-100">
        <p className="flex items-center gap-2 font-semibold" data-testid="qa-label">
          <FlaskConical className="size-4" aria-hidden="true" />
          {t('label')}
        </p>
        <p>{t('intro')}</p>
        {live ? (
          <p className="flex gap-3">
            <Link to={localePath(locale, `/play/${game.slug}`)} className={cn('underline', focusRing)}>
              {t('playNormally')}
            </Link>
          </p>
        ) : (
          <p data-testid="qa-not-live">{t('notLive')}</p>
        )}
      </div>

      <section className={section} aria-labelledby="qa-player">
        <h2 id="qa-player" className={heading}>
          {t('player.heading')}
        </h2>
        <p data-testid="qa-player" data-member={isMember ? 'true' : 'false'}>
          {who}
        </p>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" disabled={pending !== null} onClick={() => freshAccount('guest')} data-testid="qa-new-guest">
            {t('player.newGuest')}
          </Button>
          <Button variant="secondary" size="sm" disabled={pending !== null} onClick={() => freshAccount('member')} data-testid="qa-new-member">
            {t('player.newMember')}
          </Button>
        </div>
        <p className="text-zinc-600 dark:text-zinc-400">{t('player.hint')}</p>
        {credentials && (
          <p className="font-mono text-xs break-all" data-testid="qa-credentials">
            {t('player.credentials', credentials)}
          </p>
        )}
        {failure && (
          <p role="alert" className="text-red-700 dark:text-red-400">
            {failure}
          </p>
        )}
      </section>

      <section className={section} aria-labelledby="qa-payments">
        <h2 id="qa-payments" className={heading}>
          {t('payments.heading')}
        </h2>
        <p data-testid="qa-payments" data-provider={payments} className={cn(payments === 'xsolla' && 'font-semibold text-red-700 dark:text-red-400')}>
          {t(`payments.${payments}`)}
        </p>
        {payments === 'sandbox' && (
          <ul className="font-mono text-xs">
            {SANDBOX_CARDS.map(([card, result]) => (
              <li key={card}>
                {card}: <span className="font-sans">{t(`payments.${result}`)}</span>
              </li>
            ))}
          </ul>
        )}
        {payments !== 'off' && <p className="text-zinc-600 dark:text-zinc-400">{t('payments.how')}</p>}
      </section>

      <section className={section} aria-labelledby="qa-ads">
        <h2 id="qa-ads" className={heading}>
          {t('ads.heading')}
        </h2>
        <p className="text-zinc-600 dark:text-zinc-400">{t('ads.note')}</p>
      </section>

      <section className={cn(section, 'min-h-64 flex-1')} aria-labelledby="qa-log">
        <div className="flex items-center gap-2">
          <h2 id="qa-log" className={cn(heading, 'flex-1')}>
            {t('log.heading')}
          </h2>
          <Button variant="ghost" size="sm-narrow" onClick={onRestart} data-testid="qa-restart">
            <RotateCcw aria-hidden="true" />
            {t('log.restart')}
          </Button>
          <Button variant="ghost" size="sm-narrow" onClick={() => setLog([])} data-testid="qa-clear">
            <Trash2 aria-hidden="true" />
            {t('log.clear')}
          </Button>
        </div>
        <div
          ref={list}
          role="log"
          aria-labelledby="qa-log"
          // A long log scrolls: the keyboard reaches it then (decision 121).
          // oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling box must take focus for the keyboard to scroll it (WCAG 2.1.1)
          tabIndex={logOverflows ? 0 : undefined}
          className={cn('max-h-[32rem] overflow-y-auto rounded-lg bg-zinc-50 p-2 font-mono text-xs dark:bg-zinc-950', focusRing)}
          data-testid="qa-log"
        >
          {log.length === 0 ? (
            <p className="font-sans text-zinc-600 dark:text-zinc-400">{t('log.empty')}</p>
          ) : (
            <ol className="flex flex-col gap-1">
              {log.map((entry, index) => (
                <LogLine key={index} entry={entry} />
              ))}
            </ol>
          )}
        </div>
      </section>
    </aside>
  );
}

function LogLine({ entry }: { entry: QaLogEntry }) {
  const { t } = useTranslation('qa');
  const time = <time className="text-zinc-500 dark:text-zinc-400">{logTime(entry.at)}</time>;
  if (entry.kind === 'call') {
    const outcome = entry.outcome;
    return (
      <li
        className="break-all"
        data-testid="qa-log-entry"
        data-kind="call"
        data-method={entry.method}
        data-outcome={outcome === null ? 'pending' : outcome.ok ? 'ok' : outcome.code}
      >
        {time} <strong className="font-semibold">{entry.method}</strong>({logValue(entry.params)}){' → '}
        {outcome === null ? (
          <span className="text-zinc-500 dark:text-zinc-400">{t('log.pending')}</span>
        ) : outcome.ok ? (
          <span>
            <span className="text-green-700 dark:text-green-400">{t('log.ok')}</span> ({t('log.ms', { ms: outcome.ms })}) {logValue(outcome.result)}
          </span>
        ) : (
          <span>
            <span className="text-red-700 dark:text-red-400">{outcome.code}</span> ({t('log.ms', { ms: outcome.ms })}) {outcome.message}
          </span>
        )}
      </li>
    );
  }
  if (entry.kind === 'event')
    return (
      <li className="break-all" data-testid="qa-log-entry" data-kind="event" data-method={entry.event}>
        {time} <span className="text-sky-700 dark:text-sky-400">{t('log.event')}</span> <strong className="font-semibold">{entry.event}</strong>{' '}
        {logValue(entry.data)}
      </li>
    );
  return (
    <li className="break-all" data-testid="qa-log-entry" data-kind="message" data-method={entry.type}>
      {time} <span className="text-zinc-500 dark:text-zinc-400">{t(entry.direction === 'from-game' ? 'log.fromGame' : 'log.toGame')}</span> {entry.type}{' '}
      {logValue(entry.data)}
    </li>
  );
}
