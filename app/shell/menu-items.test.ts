import { describe, expect, it } from 'vitest';
import type { UserInfo } from '../features/accounts/use-session.ts';
import { MAIN_NAV, sideMenuGroups, userMenuItems } from './menu-items.ts';
import { workspaceItems } from './workspace-items.ts';

const user = (fields: Partial<UserInfo> = {}): UserInfo => ({
  uid: 7,
  nickname: null,
  avatar: null,
  social_providers: [],
  webauthn: false,
  isGuest: false,
  ...fields,
});
const paths = (items: ReadonlyArray<{ to: string }>) => items.map((i) => i.to);

describe('menus of spec section 2', () => {
  it('header and bottom bar: home, categories, news (/article/news), my area (/user)', () => {
    expect(paths(MAIN_NAV)).toEqual(['/', '/categories', '/article/news', '/user']);
  });

  it('user menu: settings only when signed out (no session, or a guest account)', () => {
    expect(userMenuItems({ isMember: false, userInfo: null }).map((i) => i.id)).toEqual(['settings']);
    expect(userMenuItems({ isMember: false, userInfo: user({ isGuest: true }) }).map((i) => i.id)).toEqual(['settings']);
    expect(sideMenuGroups({ isMember: false, userInfo: user({ isGuest: true }) }).map((g) => g.id)).toEqual(['categories', 'settings']);
  });

  it('user menu: profile, social accounts, switch account, settings when signed in', () => {
    expect(userMenuItems({ isMember: true, userInfo: user() }).map((i) => i.id)).toEqual(['profile', 'social', 'switch-account', 'settings']);
  });

  it('user menu: the Studio for a member with a studio profile, the Console for an operator, before settings (decision 120)', () => {
    const member = { isMember: true, userInfo: user() };
    expect(userMenuItems(member, workspaceItems({ studio: false, console: false })).map((i) => i.id)).toEqual([
      'profile',
      'social',
      'switch-account',
      'settings',
    ]);
    expect(userMenuItems(member, workspaceItems({ studio: true, console: false })).map((i) => i.id)).toEqual([
      'profile',
      'social',
      'switch-account',
      'studio',
      'settings',
    ]);
    const both = userMenuItems(member, workspaceItems({ studio: true, console: true }));
    expect(both.map((i) => i.id)).toEqual(['profile', 'social', 'switch-account', 'studio', 'console', 'settings']);
    expect(paths(both.filter((i) => i.id === 'studio' || i.id === 'console'))).toEqual(['/studio', '/console']);
  });

  it('side menu signed out: categories group with news, then settings; no profile group', () => {
    const groups = sideMenuGroups({ isMember: false, userInfo: null });
    expect(groups.map((g) => g.id)).toEqual(['categories', 'settings']);
    expect(paths(groups[0]!.items)).toEqual(['/categories', '/article/news']);
    expect(paths(groups[1]!.items)).toEqual(['/settings']);
  });

  it('side menu signed in: the profile group, with passkey only when the user has one', () => {
    const without = sideMenuGroups({ isMember: true, userInfo: user() });
    expect(without.map((g) => g.id)).toEqual(['categories', 'profile', 'settings']);
    expect(paths(without[1]!.items)).toEqual(['/user/profile/avatar', '/user/profile/nickname', '/user/profile/social']);
    const withPasskey = sideMenuGroups({ isMember: true, userInfo: user({ webauthn: true }) });
    expect(paths(withPasskey[1]!.items)).toEqual(['/user/profile/avatar', '/user/profile/nickname', '/user/profile/social', '/user/profile/passkey']);
  });
});
