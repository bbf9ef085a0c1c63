import { useTranslation } from '../i18n/translation.tsx';
import { useSession } from '../features/accounts/use-session.ts';
import { sideMenuGroups } from './menu-items.ts';
import { MenuList } from './menu-list.tsx';

/** The side menu's groups (spec section 2); shown beside the content on wide screens. */
export function SideMenu() {
  const { t } = useTranslation('shell');
  const session = useSession();
  return (
    <nav aria-label={t('sideMenu.label')} data-testid="side-menu" className="flex flex-col gap-5">
      {sideMenuGroups(session).map((group) =>
        group.titleKey ? (
          <section key={group.id} aria-labelledby={`side-menu-${group.id}`} data-menu-group={group.id}>
            <h2 id={`side-menu-${group.id}`} className="mb-1 px-2 text-xs font-medium tracking-wide text-zinc-500 uppercase dark:text-zinc-400">
              {t(group.titleKey)}
            </h2>
            <MenuList items={group.items} />
          </section>
        ) : (
          <div key={group.id} data-menu-group={group.id} className="border-t border-zinc-200 pt-4 dark:border-zinc-800">
            <MenuList items={group.items} />
          </div>
        ),
      )}
    </nav>
  );
}
