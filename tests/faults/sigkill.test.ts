// A server killed with SIGKILL in the middle of a burst of writes loses none that it acknowledged:
// every 2xx play, favourite, cloud save, nickname, order and payment notification is found after a
// restart, on SQLite (WAL, synchronous=FULL) and on a private PostgreSQL (decision 077).
import { rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { sendNotification } from '#server/testing/xsolla-stand-in.ts';
import { Client, freshPostgresDatabase, freshSqliteDatabase, killServers, postgresAt, sleep, startServer } from './support.ts';

const SECRET = 'xsolla-webhook-secret';
const XSOLLA_ENV = { XSOLLA_PROJECT_ID: '301234', XSOLLA_API_KEY: 'xsolla-test-key', XSOLLA_WEBHOOK_SECRET: SECRET };
const BURST_MS = 2000;

const ok = (status: number) => status >= 200 && status < 300;

const folders: string[] = [];
afterAll(async () => {
  await killServers();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** What the burst got acknowledged, to look for after the restart. */
interface Acknowledged {
  plays: Map<number, number>;
  favourites: Set<number>;
  saves: Map<string, number>;
  nicknames: string[];
  /** The nickname sent when the server died, which may or may not have committed. */
  nicknameInFlight: string | null;
  orders: string[];
  paid: string[];
  lost: number;
}

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`SIGKILL during a burst of writes (${kind})`, () => {
    it('loses no acknowledged write', async () => {
      const { postgresDir, postgresPort, sqliteTemplate } = inject('faults');
      let databaseUrl: string;
      if (kind === 'sqlite') {
        const sqlite = freshSqliteDatabase(sqliteTemplate);
        folders.push(sqlite.folder);
        databaseUrl = sqlite.url;
      } else {
        databaseUrl = await freshPostgresDatabase(postgresAt(postgresDir, postgresPort));
      }
      const env = { DATABASE_URL: databaseUrl, ...XSOLLA_ENV };
      const first = await startServer(env);
      const client = new Client(first.origin);
      const member = await client.newMember(`kill_${randomBytes(4).toString('hex')}`).catch((error: Error) => {
        throw new Error(`${error.message}\n${first.output()}`);
      });
      const apps = (await client.call<{ items: Array<{ id: number; slug: string }> }>('GET', '/app/list/')).data.items;
      const alpha = (await client.call<{ id: number }>('GET', '/app/info/?slug=solitaire')).data.id;
      const auth = { token: member.token };

      const acknowledged: Acknowledged = {
        plays: new Map(),
        favourites: new Set(),
        saves: new Map(),
        nicknames: [],
        nicknameInFlight: null,
        orders: [],
        paid: [],
        lost: 0,
      };
      const server = { dead: false };
      // Each worker writes one kind of thing, one request after another, until the server dies.
      const worker = async (write: (n: number) => Promise<void>) => {
        for (let n = 0; !server.dead; n++) {
          try {
            await write(n);
          } catch {
            acknowledged.lost++;
            return;
          }
        }
      };
      const workers = [
        worker(async (n) => {
          const app = apps[n % apps.length]!.id;
          if (ok((await client.call('POST', '/member/played/', { ...auth, body: { app_id: app } })).status))
            acknowledged.plays.set(app, (acknowledged.plays.get(app) ?? 0) + 1);
        }),
        worker(async (n) => {
          const app = apps[n % apps.length]!.id;
          const on = n < apps.length;
          if (ok((await client.call(on ? 'PUT' : 'GET', `/member/favourite/${app}`, auth)).status) && on) acknowledged.favourites.add(app);
        }),
        worker(async (n) => {
          const key = `slot-${n}`;
          if (ok((await client.call('PUT', `/game/saves/${alpha}/${key}`, { ...auth, body: { value: { n } } })).status)) acknowledged.saves.set(key, n);
        }),
        worker(async (n) => {
          const nickname = `Runner ${n}`;
          acknowledged.nicknameInFlight = nickname;
          if (ok((await client.call('PATCH', '/member/nickname/', { ...auth, body: { nickname } })).status)) acknowledged.nicknames.push(nickname);
        }),
        worker(async () => {
          const order = await client.call<{ id: string }>('POST', `/game/pay/${alpha}`, {
            ...auth,
            body: { sku: 'solitaire-gold-backs', idempotencyKey: randomBytes(12).toString('base64url') },
          });
          if (!ok(order.status)) return;
          acknowledged.orders.push(order.data.id);
          const notice = {
            notification_type: 'payment',
            purchase: { total: { currency: 'USD', amount: 1.99 } },
            user: { id: String(member.uid) },
            transaction: { id: 900_000 + acknowledged.orders.length, external_id: order.data.id },
            custom_parameters: { order_id: order.data.id },
          };
          if (ok((await sendNotification(`${first.origin}/serve/api/payment/xsolla/webhook/`, SECRET, notice)).status)) acknowledged.paid.push(order.data.id);
        }),
      ];
      await sleep(BURST_MS);
      first.child.kill('SIGKILL');
      server.dead = true;
      expect((await first.exited).signal).toBe('SIGKILL');
      await Promise.all(workers);

      const total =
        [...acknowledged.plays.values()].reduce((a, b) => a + b, 0) +
        acknowledged.favourites.size +
        acknowledged.saves.size +
        acknowledged.nicknames.length +
        acknowledged.orders.length +
        acknowledged.paid.length;
      console.info(
        JSON.stringify({
          plays: [...acknowledged.plays.values()],
          favourites: acknowledged.favourites.size,
          saves: acknowledged.saves.size,
          nicknames: acknowledged.nicknames.length,
          orders: acknowledged.orders.length,
          paid: acknowledged.paid.length,
        }),
      );
      console.info(`${kind}: ${total} writes acknowledged before SIGKILL, ${acknowledged.lost} requests cut off`);
      expect(total).toBeGreaterThan(20);
      expect(acknowledged.paid.length).toBeGreaterThan(0);

      const second = await startServer(env);
      try {
        const after = new Client(second.origin);
        const playedAnswer = await after.call<{ items: Array<{ id: number; plays: number }> }>('GET', '/member/played/?limit=60', auth);
        if (playedAnswer.status !== 200) await sleep(1000);
        expect(playedAnswer.status, `${playedAnswer.message}\n${second.output()}`).toBe(200);
        const played = playedAnswer.data.items;
        for (const [app, count] of acknowledged.plays) {
          // An unacknowledged play may have committed too: at least, never fewer.
          expect(played.find((p) => p.id === app)?.plays ?? 0).toBeGreaterThanOrEqual(count);
        }
        for (const app of acknowledged.favourites) {
          expect((await after.call<{ favourite: boolean }>('GET', `/member/favourite/${app}`, auth)).data.favourite).toBe(true);
        }
        for (const [key, n] of acknowledged.saves) {
          expect((await after.call<{ value: unknown }>('GET', `/game/saves/${alpha}/${key}`, auth)).data.value).toEqual({ n });
        }
        const nickname = (await after.call<{ userInfo: { nickname: string } }>('GET', '/member/info/', auth)).data.userInfo.nickname;
        expect([acknowledged.nicknames.at(-1), acknowledged.nicknameInFlight]).toContain(nickname);
        for (const id of acknowledged.orders) {
          const order = await after.call<{ status: string }>('GET', `/game/orders/${id}`, auth);
          expect(order.status).toBe(200);
          if (acknowledged.paid.includes(id)) expect(order.data.status).toBe('paid');
        }
      } finally {
        await second.stop();
      }
    }, 120_000);
  });
}
