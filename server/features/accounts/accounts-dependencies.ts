import type { RateLimiter } from '#server/adapters/rate-limits/rate-limiter.ts';
import type { Clock } from '#server/lib/clock.ts';
import type { AccessTokensService } from './access-tokens.service.ts';
import type { AvatarsService } from './avatars.service.ts';
import type { GuestChallenges } from './guest-challenges.ts';
import type { GuestMergeService } from './guest-merge.service.ts';
import type { PasswordHasher } from './password-hasher.ts';
import type { PasswordPolicy } from './password-policy.ts';
import type { SignInFailuresService } from './sign-in-failures.service.ts';
import type { UsersRepository } from './users.repository.ts';
import type { AccountRecoveryRepository } from './account-recovery.repository.ts';
import type { MailService } from '../mail/mail.service.ts';
import type { ConversionsService } from '../tracking/conversions.service.ts';
import type { TwoFactorService } from '../two-factor/two-factor.service.ts';

/** What the accounts services are built from; each part of the feature takes the fields it uses. */
export interface AccountsDependencies {
  users: UsersRepository;
  tokens: AccessTokensService;
  /** The guest merge of every sign-in that reaches an existing account. */
  guestMerge: Pick<GuestMergeService, 'mergeCallerInto'>;
  hasher: PasswordHasher;
  passwordPolicy: PasswordPolicy;
  challenges: GuestChallenges;
  limiter: RateLimiter;
  avatars: AvatarsService;
  clock: Clock;
  /** Keys the fingerprint hashes, so a leaked table cannot be matched against fingerprints. */
  appSecret: string;
  /** The server's copy of advertising conversions (decision 065); none when not configured. */
  conversions?: Pick<ConversionsService, 'registration'>;
  /** Where failed sign-ins are noted for operators (decision 098). */
  signInFailures?: Pick<SignInFailuresService, 'record'>;
  /** Two-step sign-in (decision 145): a password sign-in of an account that has it on asks for a code. */
  secondFactor?: Pick<TwoFactorService, 'required' | 'ticketFor' | 'verifySignIn'>;
  /** Verified email and "Forgot password" (decision 146): their table, the mail, and the origin links point to. */
  recovery?: { repository: AccountRecoveryRepository; mail: Pick<MailService, 'enqueue'>; publicOrigin: string };
}
