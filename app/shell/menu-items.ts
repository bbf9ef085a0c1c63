import { Home, KeyRound, LayoutGrid, Link2, type LucideIcon, Newspaper, PenLine, Repeat, Settings, SquareUserRound, UserRound } from 'lucide-react';
import type { SessionState } from '../features/accounts/use-session.ts';

/** One entry of a menu: a path without locale prefix and a `shell` message key. */
export interface MenuItem {
  id: string;
  to: string;
  labelKey: string;
  icon: LucideIcon;
  /** Active only on exactly this path (home), not below it. */
  end?: boolean;
}

export interface MenuGroup {
  id: string;
  /** Groups of one entry (settings) need no heading. */
  titleKey: string | null;
  items: MenuItem[];
}

type Session = Pick<SessionState, 'userInfo'> & { isMember: boolean };

/** Header links (desktop) and bottom bar (mobile): home, categories, news, my area. */
export const MAIN_NAV: readonly MenuItem[] = [
  { id: 'home', to: '/', labelKey: 'nav.home', icon: Home, end: true },
  { id: 'categories', to: '/categories', labelKey: 'nav.categories', icon: LayoutGrid },
  { id: 'news', to: '/article/news', labelKey: 'nav.news', icon: Newspaper },
  { id: 'my-area', to: '/user', labelKey: 'nav.myArea', icon: UserRound },
];

const SETTINGS: MenuItem = { id: 'settings', to: '/settings', labelKey: 'userMenu.settings', icon: Settings };

/**
 * Spec section 2: signed in, profile, social accounts, switch account and settings; signed out,
 * settings only. "Signed in" is a signed-in member: profile pages are for members (decision 026).
 */
/** `places`: the member's Studio and Console (workspace-items.ts), before settings. */
export function userMenuItems(session: Session, places: MenuItem[] = []): MenuItem[] {
  if (!session.isMember) return [...places, SETTINGS];
  return [
    { id: 'profile', to: '/user/profile', labelKey: 'userMenu.profile', icon: SquareUserRound },
    { id: 'social', to: '/user/profile/social', labelKey: 'userMenu.social', icon: Link2 },
    { id: 'switch-account', to: '/login', labelKey: 'userMenu.switchAccount', icon: Repeat },
    ...places,
    SETTINGS,
  ];
}

/** The developers' page, where a studio starts (its Markdown is content/pages/developers.*.md). */
export const DEVELOPERS_PAGE = '/page/developers';

/**
 * Spec section 2: a categories group with news; a profile group (avatar, nickname, social
 * accounts, passkey) only when signed in, passkey only when one exists; settings.
 */
export function sideMenuGroups(session: Session): MenuGroup[] {
  const groups: MenuGroup[] = [
    {
      id: 'categories',
      titleKey: 'sideMenu.categories',
      items: [
        { id: 'categories', to: '/categories', labelKey: 'sideMenu.allCategories', icon: LayoutGrid },
        { id: 'news', to: '/article/news', labelKey: 'sideMenu.news', icon: Newspaper },
      ],
    },
  ];
  if (session.isMember) groups.push(profileMenuGroup(Boolean(session.userInfo?.webauthn)));
  groups.push({ id: 'settings', titleKey: null, items: [{ ...SETTINGS, labelKey: 'sideMenu.settings' }] });
  return groups;
}

/** The side menu's profile group of a member; its passkey entry only for a member with a passkey. */
export function profileMenuGroup(hasPasskey: boolean): MenuGroup {
  const items: MenuItem[] = [
    { id: 'avatar', to: '/user/profile/avatar', labelKey: 'sideMenu.avatar', icon: UserRound },
    { id: 'nickname', to: '/user/profile/nickname', labelKey: 'sideMenu.nickname', icon: PenLine },
    { id: 'social', to: '/user/profile/social', labelKey: 'sideMenu.social', icon: Link2 },
  ];
  if (hasPasskey) items.push({ id: 'passkey', to: '/user/profile/passkey', labelKey: 'sideMenu.passkey', icon: KeyRound });
  return { id: 'profile', titleKey: 'sideMenu.profile', items };
}
