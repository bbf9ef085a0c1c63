import { useTranslation } from '../../i18n/translation.tsx';
import { Link } from 'react-router';
import { localePath } from '#common/locales.ts';
import { useLocale } from '../../i18n/use-locale.ts';
import { Avatar } from '../../ui/avatar.tsx';
import { Button } from '../../ui/button.tsx';
import { displayName } from './display-name.ts';
import { RETURN_QUERY } from './require-member.ts';
import { useSession } from './use-session.ts';

/**
 * My area's member card: the avatar (an icon without one), the nickname or "ID:{uid}", whether
 * this is a guest account, and the way on: the profile for a member, sign-in or a new account
 * (which keeps the guest's games) for everyone else.
 */
export function MemberCard() {
  const { t } = useTranslation('accounts');
  const locale = useLocale();
  const { userInfo, isMember, status } = useSession();
  const here = localePath(locale, '/user');
  const login = (mode?: 'create') => `${localePath(locale, '/login')}?${mode ? 'mode=create&' : ''}${RETURN_QUERY}=${encodeURIComponent(here)}`;
  const loading = !userInfo && status === 'loading';
  return (
    <section
      aria-label={t('card.label')}
      aria-busy={loading}
      data-testid="member-card"
      className="flex flex-col gap-4 rounded-2xl border border-zinc-200 bg-zinc-50 p-4 sm:flex-row sm:items-center sm:p-6 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex min-w-0 flex-1 items-center gap-4">
        <Avatar src={userInfo?.avatar} className="size-16 sm:size-20" />
        <div className="min-w-0">
          {userInfo ? (
            <p className="truncate text-lg font-semibold" data-testid="member-name">
              {displayName(userInfo, t)}
            </p>
          ) : loading ? (
            <p className="h-7 w-40 animate-pulse rounded-md bg-zinc-200 motion-reduce:animate-none dark:bg-zinc-800">
              <span className="sr-only">{t('card.loading')}</span>
            </p>
          ) : (
            <p className="text-lg font-semibold" data-testid="member-name">
              {t('card.noSession')}
            </p>
          )}
          {userInfo ? (
            <p className="mt-0.5 text-sm text-zinc-600 dark:text-zinc-400" data-testid="member-status">
              {isMember ? t('card.member') : t('card.guest')}
              <span className="px-1.5" aria-hidden>
                ·
              </span>
              {t('card.uid', { uid: userInfo.uid })}
            </p>
          ) : null}
          {!isMember && !loading ? <p className="mt-2 max-w-prose text-sm text-zinc-600 dark:text-zinc-400">{t('card.guestHint')}</p> : null}
        </div>
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        {isMember ? (
          <Button asChild variant="secondary">
            <Link to={localePath(locale, '/user/profile')} data-testid="member-edit-profile">
              {t('card.editProfile')}
            </Link>
          </Button>
        ) : (
          <>
            <Button asChild>
              <Link to={login('create')} data-testid="member-create-account">
                {t('card.createAccount')}
              </Link>
            </Button>
            <Button asChild variant="secondary">
              <Link to={login()} data-testid="member-sign-in">
                {t('card.signIn')}
              </Link>
            </Button>
          </>
        )}
      </div>
    </section>
  );
}
