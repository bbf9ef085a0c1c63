import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpTransport } from '#server/adapters/mail/smtp-transport.ts';
import { type DatabaseHandle } from '#server/db/client.ts';
import { ManualClock } from '#server/testing/clocks.ts';
import { startMailStandIn } from '#server/testing/mail-stand-in.ts';
import { openTestDatabase, type TestDatabase } from '#server/testing/test-database.ts';
import { MailRepository } from './mail.repository.ts';
import { MailService, RETRY_DELAYS_MINUTES } from './mail.service.ts';

const startSmtp = (port = 0) => startMailStandIn({ smtpPort: port });

const verify = { nickname: 'Ann & Bob', code: '482913', link: 'https://playport.localhost/verify?code=482913' };

describe('mail outbox', () => {
  let database: TestDatabase;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  const clock = new ManualClock('2026-11-01T10:00:00.000Z');

  beforeAll(async () => {
    database = await openTestDatabase();
    smtp = await startSmtp();
  });
  afterAll(async () => {
    await smtp.stop();
    await database.drop();
  });

  function mailService(port: number, handle: DatabaseHandle = database) {
    return new MailService({
      repository: new MailRepository(handle.db),
      transport: new SmtpTransport({ url: `smtp://127.0.0.1:${port}`, from: 'Playport <no-reply@playport.localhost>' }),
      clock,
    });
  }

  it('sends a queued message with its text and HTML parts in the member language', async () => {
    const mail = mailService(smtp.smtpPort);
    const repository = new MailRepository(database.db);
    const id = await mail.enqueue({ to: 'ann@example.test', locale: 'zh-CN', template: 'verify-email', params: verify });
    expect((await repository.byId(id))?.status).toBe('pending');
    expect(await mail.sendDue()).toBe(1);
    const message = smtp.received[0]!;
    expect(message.subject).toBe('你的 Playport 验证码：482913');
    expect(message.text).toContain('482913');
    expect(message.text).toContain('Ann & Bob，你好');
    expect(message.html).toContain('Ann &#38; Bob，你好');
    expect(message.html).toContain('lang="zh-CN"');
    expect(message.headers.get('content-language')).toBe('zh-CN');
    expect((await repository.byId(id))?.status).toBe('sent');
    // Nothing is due any more: a second round sends nothing.
    expect(await mail.sendDue()).toBe(0);
    await mail.stop();
  });

  it('keeps a message through an outage and sends it exactly once when the server is back', async () => {
    const outage = await startSmtp();
    const port = outage.smtpPort;
    await outage.stop();
    const mail = mailService(port);
    const repository = new MailRepository(database.db);
    const id = await mail.enqueue({ to: 'bob@example.test', locale: 'en', template: 'verify-email', params: verify });
    expect(await mail.sendDue()).toBe(1);
    const failed = (await repository.byId(id))!;
    expect(failed.status).toBe('pending');
    expect(failed.attempts).toBe(1);
    expect(failed.last_error).toBeTruthy();
    expect(Date.parse(failed.next_attempt_at) - clock.now().getTime()).toBe(RETRY_DELAYS_MINUTES[0] * 60_000);
    // Not due before the backoff runs out, even with the server back.
    const back = await startSmtp(port);
    expect(await mail.sendDue()).toBe(0);
    clock.advance(RETRY_DELAYS_MINUTES[0] * 60_000);
    expect(await mail.sendDue()).toBe(1);
    expect(await mail.sendDue()).toBe(0);
    expect(back.received).toHaveLength(1);
    expect(back.received[0]!.subject).toBe('Your Playport code: 482913');
    expect(back.received[0]!.html).toContain('Hello Ann &#38; Bob,');
    const sent = (await repository.byId(id))!;
    expect(sent).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    await back.stop();
    await mail.stop();
  });

  it('gives up after the last retry and keeps the row as failed', async () => {
    const outage = await startSmtp();
    await outage.stop();
    const mail = mailService(outage.smtpPort);
    const repository = new MailRepository(database.db);
    const id = await mail.enqueue({ to: 'cat@example.test', locale: 'en', template: 'test-message', params: { nickname: 'Cat' } });
    for (const minutes of RETRY_DELAYS_MINUTES) {
      await mail.sendDue();
      clock.advance(minutes * 60_000);
    }
    await mail.sendDue();
    expect(await repository.byId(id)).toMatchObject({ status: 'failed', attempts: RETRY_DELAYS_MINUTES.length + 1 });
    clock.advance(24 * 3600_000);
    expect(await mail.sendDue()).toBe(0);
    await mail.stop();
  });

  it('delivers each row once when two instances send at the same time', async () => {
    const race = await startSmtp();
    const second = await database.reopen();
    const first = mailService(race.smtpPort);
    const other = mailService(race.smtpPort, second);
    const count = 30;
    for (let i = 0; i < count; i++) {
      await first.enqueue({ to: `racer${i}@example.test`, locale: 'en', template: 'test-message', params: { nickname: `Racer ${i}` } });
    }
    const rounds = await Promise.all([first.sendDue(), other.sendDue(), first.sendDue(), other.sendDue()]);
    while ((await first.sendDue()) + (await other.sendDue()) > 0) {
      // Keeps going until nothing is due: the batches are smaller than the queue.
    }
    expect(rounds.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    const recipients = race.received.map((m) => (Array.isArray(m.to) ? m.to[0] : m.to)!.text).sort();
    expect(recipients).toHaveLength(count);
    expect(new Set(recipients).size).toBe(count);
    await first.stop();
    await other.stop();
    await second.close();
    await race.stop();
  });

  it('shows received mail on the development inbox page, the HTML part in a sandboxed frame', async () => {
    const standIn = await startMailStandIn({ inboxPort: 0 });
    const mail = mailService(standIn.smtpPort);
    await mail.enqueue({ to: 'eve@example.test', locale: 'en', template: 'verify-email', params: { ...verify, nickname: '<b>Eve</b>' } });
    expect(await mail.sendDue()).toBe(1);
    const page = await (await fetch(standIn.inboxUrl!)).text();
    expect(page).toContain('<h2 data-testid="mail-subject">Your Playport code: 482913</h2>');
    expect(page).toContain('eve@example.test');
    expect(page).toContain('<iframe sandbox=""');
    expect(page).not.toContain('<b>Eve</b>');
    const [listed] = (await (await fetch(`${standIn.inboxUrl}messages`)).json()) as { language: string; text: string }[];
    expect(listed).toMatchObject({ language: 'en' });
    expect(listed!.text).toContain('Hello <b>Eve</b>,');
    await mail.stop();
    await standIn.stop();
  });

  it('removes sent rows after 7 days and failed ones after 30, never pending ones', async () => {
    const mail = mailService(smtp.smtpPort);
    const pending = await mail.enqueue({ to: 'dan@example.test', locale: 'en', template: 'test-message', params: { nickname: 'Dan' } });
    clock.advance(8 * 24 * 3600_000);
    expect(await mail.removeOld()).toBeGreaterThan(0);
    const left = await database.db.selectFrom('mail_outbox').select(['id', 'status']).execute();
    expect(left.every((row) => row.status !== 'sent')).toBe(true);
    expect(left.some((row) => row.status === 'failed')).toBe(true);
    clock.advance(30 * 24 * 3600_000);
    await mail.removeOld();
    expect(await database.db.selectFrom('mail_outbox').select(['id', 'status']).execute()).toEqual([{ id: pending, status: 'pending' }]);
    await mail.stop();
  });
});
