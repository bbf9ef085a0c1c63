import { useTranslation } from '../i18n/translation.tsx';
import { useSession } from '../features/accounts/use-session.ts';
import { Avatar } from '../ui/avatar.tsx';

/** The visitor's avatar and name: nickname, else "ID:{uid}"; a visitor without a session is "Guest". */
export function useDisplayName(): string {
  const { t } = useTranslation('shell');
  const { userInfo, isSignedIn } = useSession();
  if (!isSignedIn || !userInfo) return t('userMenu.guest');
  return userInfo.nickname || t('userMenu.idFallback', { uid: userInfo.uid });
}

export function UserSummary() {
  const { t } = useTranslation('shell');
  const { userInfo, isSignedIn, isMember } = useSession();
  const name = useDisplayName();
  const status = !isSignedIn ? t('userMenu.signedOut') : isMember ? t('userMenu.member') : t('userMenu.guestAccount');
  return (
    <div className="flex items-center gap-3 px-2 py-2">
      <Avatar src={userInfo?.avatar} className="size-10" />
      <div className="min-w-0">
        <p className="truncate text-sm font-semibold" data-testid="user-name">
          {name}
        </p>
        <p className="truncate text-xs text-zinc-500 dark:text-zinc-400">{status}</p>
      </div>
    </div>
  );
}
