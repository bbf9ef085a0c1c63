import { House, RotateCw } from 'lucide-react';
import { useTranslation } from '../i18n/translation.tsx';
import { isRouteErrorResponse, useLocation, useNavigate } from 'react-router';
import { localePath } from '#common/locales.ts';
import { isNotFoundData } from '../lib/route-errors.ts';
import { Button } from '../ui/button.tsx';
import { useLocale } from '../i18n/use-locale.ts';

/** The status of a route error: a thrown response's, else 500. */
export function errorStatus(error: unknown): number {
  return isRouteErrorResponse(error) ? error.status : 500;
}

/**
 * The not-found page (spec section 2): title, description, the 404's own message, and a button
 * that clears the error by going home. Other errors get a short apology and a retry.
 */
export function ErrorPage({ error }: { error: unknown }) {
  const { t } = useTranslation('shell');
  const locale = useLocale();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const status = errorStatus(error);
  if (status === 404) {
    const info = isRouteErrorResponse(error) && isNotFoundData(error.data) ? error.data : { kind: 'unmatched' as const, path: pathname };
    return (
      <section className="mx-auto flex max-w-xl flex-col items-center py-16 text-center" data-testid="not-found">
        <p className="text-6xl font-bold tracking-tight text-green-700 dark:text-green-400" aria-hidden>
          404
        </p>
        <h1 className="mt-4 text-2xl font-semibold tracking-tight">{t('notFound.title')}</h1>
        <p className="mt-2 text-zinc-600 dark:text-zinc-400">{t('notFound.description')}</p>
        <p
          className="mt-4 max-w-full rounded-lg bg-zinc-100 px-3 py-1.5 font-mono text-sm break-all text-zinc-700 dark:bg-zinc-900 dark:text-zinc-300"
          data-testid="not-found-message"
        >
          {t(info.kind === 'invalid-parameter' ? 'notFound.invalidParameter' : 'notFound.unmatched', { path: info.path })}
        </p>
        <Button className="mt-8" onClick={() => void navigate(localePath(locale, '/'))} data-testid="not-found-clear">
          <House aria-hidden />
          {t('notFound.home')}
        </Button>
      </section>
    );
  }
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center py-16 text-center" data-testid="error-page">
      <p className="text-6xl font-bold tracking-tight text-zinc-400" aria-hidden>
        {status}
      </p>
      <h1 className="mt-4 text-2xl font-semibold tracking-tight">{t('error.title')}</h1>
      <p className="mt-2 text-zinc-600 dark:text-zinc-400">{t('error.description')}</p>
      <div className="mt-8 flex gap-2">
        <Button variant="secondary" onClick={() => window.location.reload()}>
          <RotateCw aria-hidden />
          {t('error.retry')}
        </Button>
        <Button onClick={() => void navigate(localePath(locale, '/'))}>
          <House aria-hidden />
          {t('notFound.home')}
        </Button>
      </div>
    </section>
  );
}
