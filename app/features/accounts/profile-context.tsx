import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import type { MemberUpdate, Profile } from '#common/api/accounts.schema.ts';
import { session } from './session.ts';

interface ProfileValue {
  profile: Profile;
  /** Applies a profile change's answer: the page's fields and the session's user info (all tabs). */
  apply(change: MemberUpdate): void;
}

const ProfileContext = createContext<ProfileValue | null>(null);

/** Holds the member's profile for the profile pages: the loader's copy until a change answers with a newer one. */
export function ProfileProvider({ profile, children }: { profile: Profile; children: ReactNode }) {
  const [changed, setChanged] = useState<{ from: Profile; profile: Profile } | null>(null);
  // New loader data (another account, a revalidation) replaces local changes.
  const current = changed?.from === profile ? changed.profile : profile;
  const apply = useCallback(
    (change: MemberUpdate) => {
      setChanged({ from: profile, profile: change.profile });
      session.updateUserInfo(change.userInfo);
    },
    [profile],
  );
  const value = useMemo(() => ({ profile: current, apply }), [current, apply]);
  return <ProfileContext value={value}>{children}</ProfileContext>;
}

export function useProfile(): ProfileValue {
  const value = useContext(ProfileContext);
  if (!value) throw new Error('useProfile is used outside the profile pages');
  return value;
}
