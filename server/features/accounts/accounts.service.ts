import type { MemberDataFile } from '../member-data/member-data.service.ts';
import { AccountProfileService } from './account-profile.service.ts';
import { AccountNoticesService } from './account-notices.service.ts';
import { AccountRecoveryService } from './account-recovery.service.ts';
import { AccountSignInService } from './account-sign-in.service.ts';
import type { AccountsDependencies } from './accounts-dependencies.ts';

export { ACCOUNT_LIMITS } from './account-limits.ts';

/**
 * Member accounts: guest, password and device sign-in, sign-out, user info and the profile
 * fields. The one entry the routes and other features use: sign-in (account-sign-in.service.ts)
 * and the account itself (account-profile.service.ts) answer their own calls.
 */
export class AccountsService {
  readonly #signIn: AccountSignInService;
  readonly #profile: AccountProfileService;
  /** Verified email and "Forgot password" (decision 146). */
  readonly recovery: AccountRecoveryService;
  /** Notices by mail of new sign-ins and changes, and "this wasn't me" (decision 148). */
  readonly notices: AccountNoticesService;

  constructor(deps: AccountsDependencies) {
    this.notices = new AccountNoticesService(deps);
    this.#profile = new AccountProfileService(deps, this.notices);
    this.recovery = new AccountRecoveryService(deps, this.#profile, this.notices);
    this.#signIn = new AccountSignInService(deps, this.#profile, this.notices);
  }

  /** A proof-of-work challenge for a new guest account. */
  guestChallenge(...args: Parameters<AccountSignInService['guestChallenge']>) {
    return this.#signIn.guestChallenge(...args);
  }

  /** Anonymous sign-in. */
  guestLogin(...args: Parameters<AccountSignInService['guestLogin']>) {
    return this.#signIn.guestLogin(...args);
  }

  /** Records a guest's device (fingerprint and device id) for device sign-in, once (decisions 066 and 081). */
  recordGuestDevice(...args: Parameters<AccountSignInService['recordGuestDevice']>) {
    return this.#signIn.recordGuestDevice(...args);
  }

  /** Whether the caller's account is a guest holding nothing (decision 050). */
  guestEmptiness(...args: Parameters<AccountSignInService['guestEmptiness']>) {
    return this.#signIn.guestEmptiness(...args);
  }

  /** Username and password sign-in. */
  usernameLogin(...args: Parameters<AccountSignInService['usernameLogin']>) {
    return this.#signIn.usernameLogin(...args);
  }

  /** Device sign-in (decisions 052 and 081). */
  fingerprintLogin(...args: Parameters<AccountSignInService['fingerprintLogin']>) {
    return this.#signIn.fingerprintLogin(...args);
  }

  /** The scheduled clean-up (decision 054). */
  removeUnusedGuests(...args: Parameters<AccountSignInService['removeUnusedGuests']>) {
    return this.#signIn.removeUnusedGuests(...args);
  }

  /** A guest was used from the client's network (user info, sign-in). */
  noteSeen(...args: Parameters<AccountSignInService['noteSeen']>) {
    return this.#signIn.noteSeen(...args);
  }

  /** Clears what locks a member out of password sign-in (decision 098). */
  clearSignInLimits(...args: Parameters<AccountSignInService['clearSignInLimits']>) {
    return this.#signIn.clearSignInLimits(...args);
  }

  /** Whether password sign-in is held back for the member. */
  signInLocked(...args: Parameters<AccountSignInService['signInLocked']>) {
    return this.#signIn.signInLocked(...args);
  }

  /** Revokes the caller's token. */
  logout(...args: Parameters<AccountSignInService['logout']>) {
    return this.#signIn.logout(...args);
  }

  /** The account's passkey handle. */
  ensurePasskeyHandle(...args: Parameters<AccountProfileService['ensurePasskeyHandle']>) {
    return this.#profile.ensurePasskeyHandle(...args);
  }

  /** Makes a guest a member in the caller's unit of work. */
  markSecured(...args: Parameters<AccountProfileService['markSecured']>) {
    return this.#profile.markSecured(...args);
  }

  /** Makes a guest a member in the caller's unit of work, named `nickname` when one is given. */
  secureGuest(...args: Parameters<AccountProfileService['secureGuest']>) {
    return this.#profile.secureGuest(...args);
  }

  /** A new member account in the caller's unit of work. */
  createMember(...args: Parameters<AccountProfileService['createMember']>) {
    return this.#profile.createMember(...args);
  }

  /** Disables (a time) or enables (null) an account, with `record` (the operator's audit entry) in the same transaction. */
  setDisabled(...args: Parameters<AccountProfileService['setDisabled']>) {
    return this.#profile.setDisabled(...args);
  }

  /** The account as the interface shows it. */
  userInfo(...args: Parameters<AccountProfileService['userInfo']>) {
    return this.#profile.userInfo(...args);
  }

  /** Resolves a token (as the token cookie holds it, URL-encoded or not) to its session, or null. */
  userInfoForToken(...args: Parameters<AccountProfileService['userInfoForToken']>) {
    return this.#profile.userInfoForToken(...args);
  }

  /** The profile fields of the account. */
  profile(...args: Parameters<AccountProfileService['profile']>) {
    return this.#profile.profile(...args);
  }

  /** Sets the nickname. */
  updateNickname(...args: Parameters<AccountProfileService['updateNickname']>) {
    return this.#profile.updateNickname(...args);
  }

  /** Sets the phone number. */
  updatePhone(...args: Parameters<AccountProfileService['updatePhone']>) {
    return this.#profile.updatePhone(...args);
  }

  /** Sets the username and password. */
  setPassword(...args: Parameters<AccountProfileService['setPassword']>) {
    return this.#profile.setPassword(...args);
  }

  /** Stores a new avatar (validated and re-encoded) and deletes the previous one's files. */
  setAvatar(...args: Parameters<AccountProfileService['setAvatar']>) {
    return this.#profile.setAvatar(...args);
  }

  /** The stored form of a device fingerprint. */
  fingerprintHash(...args: Parameters<AccountSignInService['fingerprintHash']>) {
    return this.#signIn.fingerprintHash(...args);
  }

  /** The stored form of a device id. */
  deviceIdHash(...args: Parameters<AccountSignInService['deviceIdHash']>) {
    return this.#signIn.deviceIdHash(...args);
  }

  memberData(userId: number): Promise<MemberDataFile[]> {
    return this.#profile.memberData(userId);
  }

  /** The second step of a password sign-in with two-step sign-in on (decision 145). */
  twoFactorLogin(...args: Parameters<AccountSignInService['twoFactorLogin']>) {
    return this.#signIn.twoFactorLogin(...args);
  }

  /** The caller proves again that they hold the account (ASVS 7.5.1). */
  confirmIdentity(...args: Parameters<AccountProfileService['confirmIdentity']>) {
    return this.#profile.confirmIdentity(...args);
  }

  memberName(userId: number): Promise<string | null> {
    return this.#profile.memberName(userId);
  }
}
