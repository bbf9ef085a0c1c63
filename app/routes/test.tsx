import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from '../i18n/translation.tsx';
import { localeDefinition } from '#common/locales.ts';
import { useSession } from '../features/accounts/use-session.ts';
import { loaderT } from '../i18n/loader-t.ts';
import { useLocale } from '../i18n/use-locale.ts';
import { pageTitle } from '../lib/meta.ts';
import { useColorMode } from '../shell/color-mode.ts';
import { useRootData } from '../shell/root-data.ts';
import { useCopy } from '../shell/use-copy.ts';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import type { Route } from './+types/test';

export function loader({ request }: Route.LoaderArgs) {
  const { t } = loaderT(request);
  return { title: t('pages.test') };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [pageTitle(matches, loaderData?.title ?? '')];

type Support = {
  webauthn: boolean;
  conditionalMediation: boolean;
  broadcastChannel: boolean;
  serviceWorker: boolean;
  install: 'installed' | 'prompt' | 'supported' | 'unsupported';
};

/** What this browser offers; measured after hydration, since the server cannot know. */
function useSupport(): Support | null {
  const [support, setSupport] = useState<Support | null>(null);
  useEffect(() => {
    let cancelled = false;
    let prompted = false;
    const webauthn = typeof window.PublicKeyCredential === 'function';
    const measure = async () => {
      const conditional =
        webauthn && typeof PublicKeyCredential.isConditionalMediationAvailable === 'function'
          ? await PublicKeyCredential.isConditionalMediationAvailable().catch(() => false)
          : false;
      if (cancelled) return;
      const install = window.matchMedia('(display-mode: standalone)').matches
        ? 'installed'
        : prompted
          ? 'prompt'
          : 'onbeforeinstallprompt' in window
            ? 'supported'
            : 'unsupported';
      setSupport({
        webauthn,
        conditionalMediation: conditional,
        broadcastChannel: typeof BroadcastChannel === 'function',
        serviceWorker: 'serviceWorker' in navigator,
        install,
      });
    };
    const onPrompt = () => {
      prompted = true;
      void measure();
    };
    window.addEventListener('beforeinstallprompt', onPrompt);
    void measure();
    return () => {
      cancelled = true;
      window.removeEventListener('beforeinstallprompt', onPrompt);
    };
  }, []);
  return support;
}

function Row({ label, value, ok, testId }: { label: string; value: string; ok?: boolean | undefined; testId: string }) {
  return (
    <div className="flex items-center justify-between gap-4 px-4 py-3">
      <dt className="min-w-0 text-sm text-zinc-600 dark:text-zinc-400">{label}</dt>
      <dd className={cn('text-right text-sm font-medium', ok === undefined ? 'min-w-0 break-all' : 'shrink-0')} data-testid={testId}>
        {ok === undefined ? (
          value
        ) : (
          <span
            className={cn(
              'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap',
              ok ? 'bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-300' : 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
            )}
          >
            {value}
          </span>
        )}
      </dd>
    </div>
  );
}

/** Diagnostics for support (spec section 2, /test): build, locale, session and browser capabilities. */
export default function TestPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('shell');
  const root = useRootData();
  const locale = useLocale();
  const session = useSession();
  const support = useSupport();
  const { resolved } = useColorMode();
  const { copy, copied } = useCopy();
  const checking = t('test.checking');
  const yesNo = (value: boolean | undefined) => (value === undefined ? checking : value ? t('test.yes') : t('test.no'));
  const state = session.isMember ? t('test.member') : session.isSignedIn ? t('test.guest') : t('test.noSession');
  const rows: Array<{ id: string; label: string; value: string; ok?: boolean | undefined }> = [
    { id: 'build', label: t('test.build'), value: root?.buildId ?? '' },
    { id: 'locale', label: t('test.locale'), value: `${locale} (${localeDefinition(locale).language})` },
    { id: 'uid', label: t('test.uid'), value: session.userInfo ? String(session.userInfo.uid) : '—' },
    { id: 'session', label: t('test.session'), value: state },
    { id: 'color-mode', label: t('test.colorMode'), value: resolved ? t(`colorMode.${resolved}`) : checking },
  ];
  const browser: Array<{ id: string; label: string; value: string; ok?: boolean | undefined }> = [
    { id: 'webauthn', label: t('test.webauthn'), value: yesNo(support?.webauthn), ok: support?.webauthn },
    { id: 'conditional-mediation', label: t('test.conditionalMediation'), value: yesNo(support?.conditionalMediation), ok: support?.conditionalMediation },
    { id: 'broadcast-channel', label: t('test.broadcastChannel'), value: yesNo(support?.broadcastChannel), ok: support?.broadcastChannel },
    { id: 'service-worker', label: t('test.serviceWorker'), value: yesNo(support?.serviceWorker), ok: support?.serviceWorker },
    {
      id: 'install',
      label: t('test.install'),
      value: support ? t(`test.install_${support.install}`) : checking,
      ok: support ? support.install !== 'unsupported' : undefined,
    },
  ];
  const report =
    [...rows, ...browser].map((row) => `${row.label}: ${row.value}`).join('\n') + `\n${typeof navigator === 'undefined' ? '' : navigator.userAgent}`;
  return (
    <div className="mx-auto max-w-2xl">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{loaderData.title}</h1>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('test.intro')}</p>
        </div>
        <Button variant="secondary" onClick={() => void copy(report)} disabled={support === null}>
          {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
          {copied ? t('copy.copied') : t('test.copy')}
        </Button>
      </div>
      <section aria-labelledby="test-app" className="mt-8">
        <h2 id="test-app" className="text-base font-semibold">
          {t('test.app')}
        </h2>
        <dl className="mt-3 divide-y divide-zinc-200 rounded-xl border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
          {rows.map((row) => (
            <Row key={row.id} label={row.label} value={row.value} testId={`test-${row.id}`} />
          ))}
        </dl>
      </section>
      <section aria-labelledby="test-browser" className="mt-8">
        <h2 id="test-browser" className="text-base font-semibold">
          {t('test.browser')}
        </h2>
        <dl className="mt-3 divide-y divide-zinc-200 rounded-xl border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
          {browser.map((row) => (
            <Row key={row.id} label={row.label} value={row.value} ok={row.ok} testId={`test-${row.id}`} />
          ))}
        </dl>
      </section>
    </div>
  );
}
