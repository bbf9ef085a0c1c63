import type { MemberDataFile } from '../member-data/member-data.service.ts';
import type { SocialPlatform } from '#common/social-platforms.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import type { SignInFailureRow, SignInFailuresRepository } from './sign-in-failures.repository.ts';

/** How many failures are kept per identifier, and in all (decision 098). */
export const SIGN_IN_FAILURE_LIMITS = { perIdentifier: 50, total: 100_000 } as const;

export interface SignInFailure {
  identifier: string;
  method: string;
  address: string;
  at: string;
}

/**
 * Failed sign-ins, for operators helping a member who is locked out (decision 098): which
 * identifier, which method, when and from which address. Bounded, so an attack cannot fill the disk.
 */
export class SignInFailuresService {
  readonly #repository: SignInFailuresRepository;
  readonly #clock: Clock;
  constructor(repository: SignInFailuresRepository, clock: Clock) {
    this.#repository = repository;
    this.#clock = clock;
  }

  /** `method` is `password`, `passkey`, or the social platform (`whatsapp`, `google`, …). */
  async record(failure: { userId: number | null; identifier: string; method: 'password' | 'passkey' | SocialPlatform; address: string }): Promise<void> {
    await this.#repository.record(
      {
        user_id: failure.userId,
        identifier: failure.identifier.slice(0, 200),
        method: failure.method,
        address: failure.address,
        created_at: isoNow(this.#clock),
      },
      SIGN_IN_FAILURE_LIMITS,
    );
  }

  /** A wrong WhatsApp code for a number: recorded against the member the number signs in, if any. */
  async recordPhone(phone: string, address: string): Promise<void> {
    await this.record({ userId: await this.#repository.memberOfPhone(phone), identifier: phone, method: 'whatsapp', address });
  }

  /** A member's newest failures, newest first. */
  async recent(member: { id: number; username: string | null; phone: string | null }, limit = 20): Promise<SignInFailure[]> {
    const identifiers = [member.username?.toLowerCase(), member.phone].filter((v): v is string => !!v);
    const rows = await this.#repository.recent({ id: member.id, identifiers }, limit);
    return rows.map(toFailure);
  }

  /** The refused sign-ins to the member's account, in "Download my data" (decision 144). */
  async memberData(userId: number): Promise<MemberDataFile[]> {
    return [{ name: 'refused-sign-ins.json', content: await this.#repository.failuresOf(userId) }];
  }
}

function toFailure(row: SignInFailureRow): SignInFailure {
  return { identifier: row.identifier, method: row.method, address: row.address, at: row.created_at };
}
