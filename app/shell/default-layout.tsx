import { useTranslation } from 'react-i18next';
import { Link, Outlet, useRouteLoaderData } from 'react-router';
import { localePath } from '#common/locales.ts';
import type { RootLoaderData } from '../root.tsx';

/** Header, content and footer around most pages. */
export default function DefaultLayout() {
  const root = useRouteLoaderData<RootLoaderData>('root');
  const locale = root?.locale ?? 'en';
  const { t } = useTranslation();
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="sticky top-0 z-30 border-b border-zinc-200 bg-white/90 backdrop-blur dark:border-zinc-800 dark:bg-zinc-950/90">
        <nav className="mx-auto flex h-14 max-w-7xl items-center gap-4 px-4">
          <Link to={localePath(locale, '/')} className="text-lg font-bold text-green-700 dark:text-green-400">
            {root?.productName}
          </Link>
          <Link to={localePath(locale, '/')} className="text-sm">
            {t('home')}
          </Link>
        </nav>
      </header>
      <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-6">
        <Outlet />
      </main>
    </div>
  );
}
