import { ChevronLeft, ChevronRight, LogOut } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n/translation.tsx';
import { Link, useNavigate } from 'react-router';
import { localePath } from '#common/locales.ts';
import { useLocale } from '../../i18n/use-locale.ts';
import { Avatar } from '../../ui/avatar.tsx';
import { Button } from '../../ui/button.tsx';
import { cn } from '../../ui/cn.ts';
import { focusRing } from '../../ui/focus.ts';
import { displayName } from './display-name.ts';
import { useProfile } from './profile-context.tsx';
import { useSession } from './use-session.ts';
import { useSignOut } from './use-sign-out.ts';

/** A profile page's frame: the way back to the overview, the title and the content. */
export function ProfileSection({ title, intro, children }: { title: string; intro?: ReactNode; children?: ReactNode }) {
  const { t } = useTranslation('accounts');
  const locale = useLocale();
  return (
    <div className="mx-auto max-w-xl">
      <Link
        to={localePath(locale, '/user/profile')}
        className={cn(
          '-ml-1 inline-flex items-center gap-1 rounded-md px-1 py-0.5 text-sm text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100',
          focusRing,
        )}
      >
        <ChevronLeft className="size-4" aria-hidden />
        {t('profile.back')}
      </Link>
      <h1 className="mt-3 text-2xl font-semibold tracking-tight">{title}</h1>
      {intro ? <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{intro}</p> : null}
      {children ? <div className="mt-6">{children}</div> : null}
    </div>
  );
}

/**
 * The profile overview: who the member is and a row per detail, each leading to its page. The
 * email, phone and password pages are reached from here only, not from the menus (spec section 1).
 */
export function ProfileOverview({ title }: { title: string }) {
  const { t } = useTranslation('accounts');
  const locale = useLocale();
  const { profile } = useProfile();
  const { userInfo } = useSession();
  const social = userInfo?.social_providers.length ?? 0;
  const rows: Array<{ id: string; label: string; value: ReactNode; to: string }> = [
    { id: 'avatar', label: t('profile.avatar'), value: <Avatar src={profile.avatar} className="size-8" />, to: '/user/profile/avatar' },
    { id: 'nickname', label: t('profile.nickname'), value: profile.nickname ?? t('profile.notSet'), to: '/user/profile/nickname' },
    { id: 'password', label: t('profile.password'), value: profile.hasPassword ? t('profile.passwordSet') : t('profile.notSet'), to: '/user/profile/password' },
    { id: 'email', label: t('profile.email'), value: profile.email ?? t('profile.notSet'), to: '/user/profile/email' },
    { id: 'phone', label: t('profile.phone'), value: profile.phone ?? t('profile.notSet'), to: '/user/profile/phone' },
    {
      id: 'social',
      label: t('profile.social'),
      value: social > 0 ? t('profile.socialCount', { count: social }) : t('profile.socialNone'),
      to: '/user/profile/social',
    },
  ];
  if (!userInfo?.isGuest) rows.push({ id: 'sessions', label: t('profile.sessions'), value: t('profile.sessionsValue'), to: '/user/profile/sessions' });
  if (userInfo?.webauthn) rows.push({ id: 'passkey', label: t('profile.passkey'), value: t('profile.passkeyReady'), to: '/user/profile/passkey' });
  rows.push(
    { id: 'two-factor', label: t('profile.twoFactor'), value: t('profile.twoFactorValue'), to: '/user/profile/two-factor' },
    { id: 'data', label: t('profile.data'), value: t('profile.dataValue'), to: '/user/profile/data' },
  );
  // A guest has nothing to delete that the guest clean-up does not remove (decision 054).
  if (!userInfo?.isGuest) rows.push({ id: 'delete', label: t('profile.deleteAccount'), value: t('profile.deleteAccountValue'), to: '/user/profile/delete' });
  return (
    <div className="mx-auto max-w-xl">
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <div className="mt-6 flex items-center gap-4">
        <Avatar src={profile.avatar} className="size-16" />
        <div className="min-w-0">
          {/* Not a <p>: axe reads a bold paragraph above a smaller one as a heading in disguise. */}
          <div className="truncate text-lg font-semibold" data-testid="profile-name">
            {displayName(profile, t)}
          </div>
          <p className="truncate text-sm text-zinc-600 dark:text-zinc-400">
            {profile.username ? `@${profile.username} · ` : ''}
            {t('card.uid', { uid: profile.uid })}
          </p>
        </div>
      </div>
      <section aria-labelledby="profile-details" className="mt-8">
        <h2 id="profile-details" className="text-sm font-medium text-zinc-500 dark:text-zinc-400">
          {t('profile.details')}
        </h2>
        <ul
          className="mt-2 divide-y divide-zinc-200 overflow-hidden rounded-xl border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
          data-testid="profile-rows"
        >
          {profile.username ? (
            <li className="flex min-h-14 items-center justify-between gap-4 px-4 py-3">
              <span className="text-sm font-medium">{t('profile.username')}</span>
              <span className="truncate text-sm text-zinc-600 dark:text-zinc-400">{profile.username}</span>
            </li>
          ) : null}
          {rows.map((row) => (
            <li key={row.id}>
              <Link
                to={localePath(locale, row.to)}
                data-profile-row={row.id}
                className={cn(
                  'flex min-h-14 items-center justify-between gap-4 px-4 py-3 transition-colors hover:bg-zinc-50 dark:hover:bg-zinc-900',
                  focusRing,
                  '-outline-offset-2',
                )}
              >
                <span className="text-sm font-medium">{row.label}</span>
                <span className="flex min-w-0 items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
                  <span className="truncate">{row.value}</span>
                  <ChevronRight className="size-4 shrink-0" aria-hidden />
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <SignOutSection />
    </div>
  );
}

/** Sign-out for any member; the header offers it only when a social account or passkey is bound (spec section 4). */
function SignOutSection() {
  const { t } = useTranslation('accounts');
  const locale = useLocale();
  const navigate = useNavigate();
  const { signingOut, signOut } = useSignOut(() => navigate(localePath(locale, '/user'), { replace: true }));
  return (
    <section aria-labelledby="profile-sign-out" className="mt-10 rounded-xl border border-zinc-200 p-4 dark:border-zinc-800">
      <h2 id="profile-sign-out" className="text-base font-semibold">
        {t('profile.signOutTitle')}
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('profile.signOutHint')}</p>
      <Button variant="secondary" className="mt-4" onClick={signOut} disabled={signingOut} data-testid="profile-sign-out">
        <LogOut aria-hidden />
        {t('profile.signOut')}
      </Button>
    </section>
  );
}
