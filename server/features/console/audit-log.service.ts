import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import type { AuditLogRepository, AuditLogRow } from './audit-log.repository.ts';

export interface AuditEntry {
  id: number;
  operatorUserId: number;
  action: string;
  target: { type: string; id: string };
  detail: Record<string, unknown>;
  createdAt: string;
}

/**
 * The operators' audit log (decision 095): every Console action records who did what to what, and
 * why. Entries are never changed or removed; the Console shows them, newest first.
 */
export class AuditLogService {
  readonly #repository: AuditLogRepository;
  readonly #clock: Clock;
  constructor(repository: AuditLogRepository, clock: Clock) {
    this.#repository = repository;
    this.#clock = clock;
  }

  /**
   * Records an operator's action. Give the transaction the action runs in, so that the entry and
   * the change commit together or not at all.
   */
  async record(
    entry: { operatorUserId: number; action: string; target: { type: string; id: string | number }; detail?: Record<string, unknown> },
    transaction?: UnitOfWork,
  ): Promise<void> {
    await this.#repository.append(
      {
        operator_user_id: entry.operatorUserId,
        action: entry.action,
        target_type: entry.target.type,
        target_id: String(entry.target.id),
        detail: JSON.stringify(entry.detail ?? {}),
        created_at: isoNow(this.#clock),
      },
      transaction,
    );
  }

  /** A page of entries, newest first; `nextBefore` is the id to ask the next page with. */
  async page(options: {
    limit: number;
    beforeId?: number;
    target?: { type: string; id: string };
  }): Promise<{ entries: AuditEntry[]; nextBefore: number | null }> {
    const rows = await this.#repository.page(options);
    const page = rows.slice(0, options.limit);
    return { entries: page.map(toEntry), nextBefore: rows.length > options.limit ? (page.at(-1)?.id ?? null) : null };
  }
}

function toEntry(row: AuditLogRow): AuditEntry {
  return {
    id: row.id,
    operatorUserId: row.operator_user_id,
    action: row.action,
    target: { type: row.target_type, id: row.target_id },
    detail: JSON.parse(row.detail) as Record<string, unknown>,
    createdAt: row.created_at,
  };
}
