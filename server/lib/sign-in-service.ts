import type { RateLimiter } from '#server/adapters/rate-limits/rate-limiter.ts';
import type { Clock } from './clock.ts';

/**
 * What every way of signing in (passkeys, social sign-in) is built from. Each feature names the
 * types, picking what it uses of the accounts, tokens and tracking services: this module knows no
 * feature.
 */
export interface SignInDependencies {
  repository: unknown;
  accounts: unknown;
  tokens: unknown;
  /** The guest merge of every sign-in that reaches an existing account. */
  guestMerge: unknown;
  limiter: RateLimiter;
  clock: Clock;
  /** The server's copy of advertising conversions (decision 065); none when not configured. */
  conversions?: unknown;
  /** Where refused sign-ins are noted for operators (decision 098); none when not configured. */
  signInFailures?: unknown;
}

/** The dependencies a way of signing in holds, the optional ones null when not configured. */
export abstract class SignInService<Dependencies extends SignInDependencies> {
  protected readonly repository: Dependencies['repository'];
  protected readonly accounts: Dependencies['accounts'];
  protected readonly tokens: Dependencies['tokens'];
  protected readonly guestMerge: Dependencies['guestMerge'];
  protected readonly limiter: RateLimiter;
  protected readonly clock: Clock;
  protected readonly conversions: NonNullable<Dependencies['conversions']> | null;
  protected readonly signInFailures: NonNullable<Dependencies['signInFailures']> | null;

  constructor(deps: Dependencies) {
    this.repository = deps.repository;
    this.accounts = deps.accounts;
    this.tokens = deps.tokens;
    this.guestMerge = deps.guestMerge;
    this.limiter = deps.limiter;
    this.clock = deps.clock;
    this.conversions = deps.conversions ?? null;
    this.signInFailures = deps.signInFailures ?? null;
  }
}
