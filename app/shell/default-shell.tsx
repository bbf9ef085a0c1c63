import { type ReactNode, Suspense } from 'react';
import { BottomBar } from './bottom-bar.tsx';
import { OfflineNotice } from './offline-notice.tsx';
import { useRootData } from './root-data.ts';
import { SideMenu } from './side-menu.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader } from './site-header.tsx';
import { SkipLink } from './skip-link.tsx';

/**
 * Header, side menu (1280 px and wider), content, footer (desktop) and bottom bar (mobile). The
 * Suspense boundaries let React hydrate the parts in separate tasks rather than one long one
 * (total blocking time on a phone); the server inlines their content (entry.server.tsx), so a
 * page read without scripts is whole.
 */
export function DefaultShell({ children }: { children: ReactNode }) {
  const root = useRootData();
  const productName = root?.productName ?? '';
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <SiteHeader productName={productName} />
      <div className="mx-auto flex w-full max-w-7xl flex-1 gap-8 px-4">
        <aside className="sticky top-14 hidden max-h-[calc(100dvh-3.5rem)] w-52 shrink-0 self-start overflow-y-auto py-6 xl:block">
          <Suspense>
            <SideMenu />
          </Suspense>
        </aside>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 pt-6 pb-24 outline-none md:pb-12">
          <OfflineNotice />
          <Suspense>{children}</Suspense>
        </main>
      </div>
      <Suspense>
        <SiteFooter productName={productName} communityChatUrl={root?.communityChatUrl ?? ''} />
        <BottomBar />
      </Suspense>
    </div>
  );
}
