import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

declare const opaque: unique symbol;

/**
 * One database transaction as services hold it (decision 127): they pass it from one repository
 * call to the next, also to another feature's service, so that the writes commit together, but
 * cannot query through it. Only repositories open one (`inUnitOfWork`) and read it (`executorOf`).
 */
export interface UnitOfWork {
  readonly [opaque]: 'UnitOfWork';
}

/** Runs `work` in one transaction of `db`: it commits when `work` resolves, rolls back when it throws. */
export function inUnitOfWork<T>(db: Kysely<Database>, work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
  return db.transaction().execute((trx) => work(trx as unknown as UnitOfWork));
}

/** The connection a repository call runs on: the unit of work's transaction, else `db` itself. */
export function executorOf(db: Kysely<Database>, unit: UnitOfWork | undefined): Kysely<Database> {
  return unit === undefined ? db : (unit as unknown as Kysely<Database>);
}
