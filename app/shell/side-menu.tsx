import { useTranslation } from '../i18n/translation.tsx';
import { useSession } from '../features/accounts/use-session.ts';
import { type MenuGroup, profileMenuGroup, sideMenuGroups } from './menu-items.ts';
import { MenuList } from './menu-list.tsx';

/**
 * The profile group as a member sees it, with the passkey entry, for the moment before the page
 * knows its account: the account hint (account-hint.ts, set before the first paint) shows it, or
 * its passkey entry, when the browser's last known account was a member's. Once the account is
 * known the group is rendered as it is, in the same place: the settings below it do not move.
 */
const RESERVED_PROFILE_GROUP = profileMenuGroup(true);

/** The side menu's groups (spec section 2); shown beside the content on wide screens. */
export function SideMenu() {
  const { t } = useTranslation('shell');
  const session = useSession();
  const groups = sideMenuGroups(session);
  // Until the account is known, the profile group's place is held for a member; the group that
  // replaces it has the same key, so the links (and a focus on one) stay.
  if (!session.isSignedIn)
    groups.splice(
      groups.findIndex((group) => group.id === 'settings'),
      0,
      RESERVED_PROFILE_GROUP,
    );
  return (
    <nav aria-label={t('sideMenu.label')} data-testid="side-menu" className="flex flex-col gap-5">
      {groups.map((group) =>
        group.titleKey ? (
          <MenuSection key={group.id} group={group} reserved={group === RESERVED_PROFILE_GROUP} />
        ) : (
          <div key={group.id} data-menu-group={group.id} className="border-t border-zinc-200 pt-4 dark:border-zinc-800">
            <MenuList items={group.items} />
          </div>
        ),
      )}
    </nav>
  );
}

/** A group with its heading. `reserved`: the profile group before the account is known, shown only by the account hint. */
function MenuSection({ group, reserved = false }: { group: MenuGroup; reserved?: boolean }) {
  const { t } = useTranslation('shell');
  const id = `side-menu-${group.id}`;
  return (
    <section
      aria-labelledby={id}
      {...(reserved ? { 'data-reserved-group': group.id, className: 'hidden [[data-account]_&]:block' } : { 'data-menu-group': group.id })}
    >
      <h2 id={id} className="mb-1 px-2 text-xs font-medium tracking-wide text-zinc-500 uppercase dark:text-zinc-400">
        {t(group.titleKey!)}
      </h2>
      <MenuList
        items={group.items}
        itemClassName={reserved ? (item) => (item.id === 'passkey' ? 'hidden [[data-account~=passkey]_&]:list-item' : undefined) : undefined}
      />
    </section>
  );
}
