import type { ErasedMember } from '../accounts/account-deletion.service.ts';
import { PeriodicWork } from '#server/lib/periodic-work.ts';
import type { Locale } from '#common/locales.ts';
import type { MailTransport } from '#server/adapters/mail/mail-transport.ts';
import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import { type OutboxState, outboxState } from '#server/lib/outbox-state.ts';
import { isMailTemplateName, type MailParams, type MailTemplateName, renderMail } from './mail-templates.ts';
import type { MailRepository } from './mail.repository.ts';

/** The waits after the 1st, 2nd, … failed attempt (decision 141); after the last one the row is failed. */
export const RETRY_DELAYS_MINUTES = [1, 5, 30, 120, 360, 720] as const;
/** How long sent rows stay, for a look at what went out, and given-up rows, for a look at why (decision 141). */
export const SENT_RETENTION_DAYS = 7;
export const FAILED_RETENTION_DAYS = 30;
const DAY_MS = 24 * 3600 * 1000;
/** How long one sender holds a claimed row: well past one SMTP attempt's time-outs. */
const CLAIM_SECONDS = 120;
const BATCH = 20;

/**
 * Mail through the outbox (decision 141): `enqueue` writes a row, in the caller's unit of work when
 * given, and never waits for a mail server; `sendDue` delivers due rows through the transport, with
 * backoff on failure. Without a transport (production without SMTP_URL) rows are kept, pending.
 */
export class MailService {
  readonly #repository: MailRepository;
  readonly #transport: MailTransport | null;
  readonly #clock: Clock;
  readonly #sender = new PeriodicWork(() => this.sendDue());

  constructor(deps: { repository: MailRepository; transport: MailTransport | null; clock: Clock }) {
    this.#repository = deps.repository;
    this.#transport = deps.transport;
    this.#clock = deps.clock;
  }

  /** Queues `template` for `to` in `locale`; answers the outbox row's id. */
  async enqueue<N extends MailTemplateName>(message: { to: string; locale: Locale; template: N; params: MailParams<N> }, unit?: UnitOfWork): Promise<number> {
    // Rendered now too, so a bad value fails the caller and never sits in the outbox.
    renderMail(message.template, message.locale, message.params);
    return this.#repository.enqueue(
      { recipient: message.to, locale: message.locale, template: message.template, params: JSON.stringify(message.params), now: isoNow(this.#clock) },
      unit,
    );
  }

  /** The outbox's depth and the age of its oldest pending message, for the metrics. */
  async outboxState(): Promise<OutboxState> {
    return outboxState(await this.#repository.pending(), this.#clock.now());
  }

  /** Sends what is due now; answers how many rows were tried. */
  async sendDue(): Promise<number> {
    if (!this.#transport) return 0;
    const now = this.#clock.now();
    const claimUntil = new Date(now.getTime() + CLAIM_SECONDS * 1000).toISOString();
    const rows = await this.#repository.claimDue(now.toISOString(), claimUntil, BATCH);
    for (const row of rows) {
      try {
        if (!isMailTemplateName(row.template) || (row.locale !== 'en' && row.locale !== 'zh-CN')) {
          throw new Error(`unknown template ${row.template} or language ${row.locale}`);
        }
        const mail = renderMail(row.template, row.locale, JSON.parse(row.params) as Record<string, string>);
        await this.#transport.send({ to: row.recipient, subject: mail.subject, text: mail.text, html: mail.html, language: mail.locale });
        await this.#repository.markSent(row.id, claimUntil, isoNow(this.#clock));
      } catch (error) {
        const failedAt = this.#clock.now();
        const delay = RETRY_DELAYS_MINUTES[row.attempts];
        const next = delay === undefined ? null : new Date(failedAt.getTime() + delay * 60_000).toISOString();
        await this.#repository.markFailed(row.id, claimUntil, error instanceof Error ? error.message : String(error), next, failedAt.toISOString());
      }
    }
    return rows.length;
  }

  /** Removes sent and given-up rows past their retention (a scheduled clean-up). */
  removeOld(): Promise<number> {
    const now = this.#clock.now().getTime();
    return this.#repository.removeDone(
      new Date(now - SENT_RETENTION_DAYS * DAY_MS).toISOString(),
      new Date(now - FAILED_RETENTION_DAYS * DAY_MS).toISOString(),
    );
  }

  /** Runs the sender every `intervalMs` until `stop()`; nothing when mail is off. */
  start(intervalMs: number, onError: (error: unknown) => void): void {
    if (this.#transport) this.#sender.start(intervalMs, onError);
  }

  /** Stops the sender and waits for the round in flight. */
  async stop(): Promise<void> {
    await this.#sender.stop();
    this.#transport?.close();
  }

  /** The account erasure's step (decision 147): mail to the member's address or number, waiting or sent, goes. */
  async eraseMember(member: ErasedMember, unit: UnitOfWork): Promise<void> {
    await this.#repository.eraseRecipients(
      [member.email, member.phone].filter((value): value is string => value !== null),
      unit,
    );
  }
}
