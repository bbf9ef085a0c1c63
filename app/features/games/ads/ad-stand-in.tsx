import { Megaphone } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { AdKind } from '#common/ads.ts';
import { useTranslation } from '../../../i18n/translation.tsx';
import { Button } from '../../../ui/button.tsx';
import type { StandInOutcome } from './ad-adapters.ts';

/**
 * The portal's stand-in for an ad network (decision 093): a placeholder over the game, clearly
 * marked as such, for `seconds`. A rewarded break can be skipped (no reward); a midgame one ends
 * by itself. Loaded on demand, the first time a game asks for a break.
 */
export function AdStandIn({ kind, seconds, onEnd }: { kind: AdKind; seconds: number; onEnd: (outcome: StandInOutcome) => void }) {
  const { t } = useTranslation('games');
  const [left, setLeft] = useState(seconds);
  const box = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const ended = useRef(false);
  const end = useCallback(
    (outcome: StandInOutcome) => {
      if (ended.current) return;
      ended.current = true;
      onEnd(outcome);
    },
    [onEnd],
  );

  useEffect(() => {
    box.current?.focus();
    const timer = setInterval(() => setLeft((value) => Math.max(0, value - 1)), 1000);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => {
    // A rewarded break may be left with Escape, as with the skip button.
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && kind === 'rewarded') end('skipped');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [kind, end]);
  useEffect(() => {
    if (left === 0) end('completed');
  }, [left, end]);

  return (
    <div className="absolute inset-0 z-20 grid place-items-center bg-zinc-950/85 p-4 motion-safe:animate-fade-in" data-testid="ad-stand-in" data-kind={kind}>
      <dialog
        ref={box}
        open
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className="relative m-0 flex w-full max-w-sm flex-col items-center gap-3 rounded-2xl border-2 border-dashed border-amber-400 bg-white p-6 text-center text-zinc-900 shadow-xl outline-none dark:bg-zinc-900 dark:text-zinc-100"
      >
        <span className="rounded bg-amber-400 px-2 py-0.5 text-xs font-bold tracking-wide text-zinc-950 uppercase">{t('sdk.adLabel')}</span>
        <Megaphone className="size-8 text-amber-500" aria-hidden="true" />
        <h2 id={titleId} className="text-base font-semibold">
          {t(kind === 'rewarded' ? 'sdk.adRewardedTitle' : 'sdk.adMidgameTitle')}
        </h2>
        <p className="text-sm text-zinc-600 dark:text-zinc-300">{t('sdk.adPlaceholder')}</p>
        <p className="text-sm tabular-nums" aria-live="polite" data-testid="ad-countdown">
          {t(kind === 'rewarded' ? 'sdk.adRewardIn' : 'sdk.adResumeIn', { seconds: left })}
        </p>
        {kind === 'rewarded' && (
          <Button variant="secondary" size="sm" onClick={() => end('skipped')}>
            {t('sdk.adSkip')}
          </Button>
        )}
      </dialog>
    </div>
  );
}
