import type { RateRule } from '#server/adapters/rate-limits/rate-limiter.ts';

/** The rate limits of the accounts calls (fixed windows, shared by every instance). */
export const ACCOUNT_LIMITS = {
  /**
   * Failed password checks per username from one client (address, or IPv6 /64): a guesser is
   * stopped while the owner, elsewhere, still signs in (decision 052).
   */
  loginPair: { name: 'login-pair', limit: 10, windowSeconds: 15 * 60 },
  /**
   * Consecutive failed password checks per username from anywhere (NIST SP 800-63B: at most 100);
   * a success clears it. Past it, a wrong password is answered 429 and holds its client back
   * (`loginHeld`); a right one still signs in (decision 081).
   */
  loginAccount: { name: 'login-account', limit: 100, windowSeconds: 24 * 60 * 60 },
  /** While the username is past its ceiling: one password check per client per hour for it. */
  loginHeld: { name: 'login-held', limit: 1, windowSeconds: 60 * 60 },
  /**
   * Failed current-password checks of one account from its own sessions: only a holder of one of
   * its sessions can charge it, so other people's failures never block the owner's change.
   */
  passwordChange: { name: 'password-change', limit: 10, windowSeconds: 15 * 60 },
  /** Failed sign-ins (password or device) per client, across usernames: credential stuffing. */
  loginAddress: { name: 'login-address', limit: 30, windowSeconds: 15 * 60 },
  /** Device sign-in attempts per fingerprint, from anywhere: a fingerprint cannot be tried across many networks. */
  deviceFingerprint: { name: 'device-fingerprint', limit: 10, windowSeconds: 60 * 60 },
  /** Device sign-in attempts per client. */
  deviceAddress: { name: 'device-address', limit: 20, windowSeconds: 15 * 60 },
  /** Usernames tried at registration per client and per account: whether a name is taken is an answer too. */
  registerAddress: { name: 'register-address', limit: 30, windowSeconds: 15 * 60 },
  registerAccount: { name: 'register-account', limit: 10, windowSeconds: 15 * 60 },
  /**
   * New guest accounts per client (IPv4 address, IPv6 /64). High on purpose: a school, an office
   * or a carrier's shared address puts hundreds of people behind one address; the proof of work
   * is what each account costs (decision 054).
   */
  guestAddress: { name: 'guest-address', limit: 1000, windowSeconds: 60 * 60 },
  /**
   * "Forgot password" (decision 146) per client and per address asked about: counted whether or not
   * an account has the address, so the limit tells nothing either.
   */
  recoveryAddress: { name: 'recovery-address', limit: 10, windowSeconds: 15 * 60 },
  recoveryEmail: { name: 'recovery-email', limit: 3, windowSeconds: 60 * 60 },
  /** Reset links tried per client: each is 256 random bits, this only keeps the tries cheap. */
  resetAddress: { name: 'reset-address', limit: 20, windowSeconds: 15 * 60 },
  /** Confirmation codes sent per account: each is a mail to an address the member typed. */
  emailCodeAccount: { name: 'email-code-account', limit: 5, windowSeconds: 60 * 60 },
  /** Avatar uploads per user: decoding images costs CPU. */
  avatarUser: { name: 'avatar-user', limit: 20, windowSeconds: 60 * 60 },
} satisfies Record<string, RateRule>;

/** A rate limit and the subject it counts: a client, a username, an account. */
export type Counter = [RateRule, string];
