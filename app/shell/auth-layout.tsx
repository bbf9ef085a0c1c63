import { Outlet } from 'react-router';
import { ColorModeButton } from './color-mode-button.tsx';
import { LanguageSelector } from './language-selector.tsx';
import { Logo } from './logo.tsx';
import { useRootData } from './root-data.ts';
import { SkipLink } from './skip-link.tsx';

/** The auth layout (/login): a quiet page with the logo, language and colour mode, content centred. */
export default function AuthLayout() {
  const root = useRootData();
  return (
    <div className="flex min-h-dvh flex-col bg-zinc-50 dark:bg-zinc-950">
      <SkipLink />
      <header className="mx-auto flex h-14 w-full max-w-5xl items-center justify-between gap-2 px-4" data-testid="auth-header">
        <Logo productName={root?.productName ?? ''} />
        <div className="flex items-center gap-1">
          <LanguageSelector />
          <ColorModeButton />
        </div>
      </header>
      <main id="main" tabIndex={-1} className="flex flex-1 items-start justify-center px-4 pt-8 pb-16 outline-none sm:items-center sm:py-10">
        <div className="w-full max-w-md rounded-2xl border border-zinc-200 bg-white p-6 shadow-sm sm:p-8 dark:border-zinc-800 dark:bg-zinc-900">
          <Outlet />
        </div>
      </main>
    </div>
  );
}
