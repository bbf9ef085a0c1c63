import type { ErasedMember } from '../accounts/account-deletion.service.ts';
import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import { AppError } from '#server/lib/app-error.ts';
import type { Caller } from '#server/lib/caller.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import type { OperatorRow, OperatorsRepository } from './operators.repository.ts';

/**
 * The operator role (decision 095): every Console call asks `requireOperator` first, on the server.
 * Granting is a command on the server (`npm run operators`), never an API a member can reach.
 */
export class OperatorsService {
  readonly #repository: OperatorsRepository;
  readonly #clock: Clock;
  constructor(repository: OperatorsRepository, clock: Clock) {
    this.#repository = repository;
    this.#clock = clock;
  }

  /** Whether a member is an operator (a page loader asks with the page session's user id). */
  async isOperator(userId: number | null): Promise<boolean> {
    return userId !== null && (await this.#repository.isOperator(userId));
  }

  /** The caller's user id when they are an operator; 401 without a caller, 403 for anyone else. */
  async requireOperator(caller: Caller | null): Promise<number> {
    if (!caller) throw new AppError('unauthenticated');
    if (!(await this.#repository.isOperator(caller.userId))) throw new AppError('forbidden');
    return caller.userId;
  }

  /** Makes the member an operator; null when no member (not a guest) has that e-mail, username or id. */
  async grant(identifier: string): Promise<number | null> {
    const member = await this.#repository.findMember(identifier);
    if (!member) return null;
    await this.#repository.grant(member.id, isoNow(this.#clock));
    return member.id;
  }

  async revoke(identifier: string): Promise<boolean> {
    const member = await this.#repository.findMember(identifier);
    return member ? this.#repository.revoke(member.id) : false;
  }

  list(): Promise<OperatorRow[]> {
    return this.#repository.list();
  }

  /** The account erasure's step (decision 147): the member's rows of this feature's tables go, in the erasure's unit of work. */
  async eraseMember(member: ErasedMember, unit: UnitOfWork): Promise<void> {
    await this.#repository.eraseMember(member.id, unit);
  }
}
