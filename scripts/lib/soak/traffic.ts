// What the soak run's visitors, players, buyers and studio do, and the record they keep of every
// write the portal acknowledged (2xx), to look for at the end. A write that was not acknowledged
// is tried again, with the same idempotency key where the API has one, until it is or until
// `giveUpMs` has passed.
import { randomBytes } from 'node:crypto';
import { solve } from '../../../common/proof-of-work.ts';
import { makeZip, sdkGameEntries } from '../../../server/testing/developer-games.ts';
import { sleep } from '../processes.ts';
import type { Answer, SoakClient } from './client.ts';
import { ADDRESSES } from './client.ts';

export interface Player {
  uid: number;
  token: string;
  address: number;
  /** When the next play report may be sent: the play page reports at most 20 times a minute. */
  nextReportAt: number;
}

/** Everything acknowledged, to find again at the end. */
export interface Acknowledged {
  guests: Set<number>;
  /** Play session ids, with the player and game. */
  plays: Map<string, { uid: number; appId: number }>;
  /** The latest acknowledged value of each save, by `${uid}/${appId}/${key}`. */
  saves: Map<string, number>;
  /** Saves whose last write was never acknowledged: either value may be the one stored. */
  unsettledSaves: Map<string, number>;
  /** Each player's best acknowledged score on the board. */
  scores: Map<number, number>;
  orders: Set<string>;
  paid: Set<string>;
  /** Builds by id, with the text their index.html carries and their preview label. */
  builds: Map<number, { marker: string; label: string }>;
  /** Writes given up after `giveUpMs` without an acknowledgement, by kind. */
  givenUp: Record<string, number>;
  /** Writes the portal refused for good (a 4xx other than 408 or 429), by kind and status. */
  refused: Record<string, number>;
}

export const newAcknowledged = (): Acknowledged => ({
  guests: new Set(),
  plays: new Map(),
  saves: new Map(),
  unsettledSaves: new Map(),
  scores: new Map(),
  orders: new Set(),
  paid: new Set(),
  builds: new Map(),
  givenUp: {},
  refused: {},
});

const ok = (answer: Answer) => answer.status >= 200 && answer.status < 300;
/** Statuses a client tries again: no answer, a timeout, a limit, the server's own trouble. */
const retriable = (status: number) => status === 0 || status === 408 || status === 429 || status >= 500;

export class Traffic {
  readonly client: SoakClient;
  readonly acknowledged = newAcknowledged();
  readonly players: Player[] = [];
  readonly buyers: Player[] = [];
  readonly #giveUpMs: number;
  #nextAddress = 0;
  #nextPlayer = 0;

  constructor(client: SoakClient, giveUpMs: number) {
    this.client = client;
    this.#giveUpMs = giveUpMs;
  }

  /**
   * Runs `attempt` until it answers 2xx (the answer), a refusal for good, or `giveUpMs` passes
   * (null). Waits between tries as a client would: Retry-After when given, else a growing pause.
   * A status in `expected` ends it with null without counting a refusal: the caller looks further.
   */
  async write(kind: string, attempt: () => Promise<Answer>, expected: number[] = []): Promise<Answer | null> {
    const deadline = Date.now() + this.#giveUpMs;
    for (let tries = 0; ; tries++) {
      const answer = await attempt();
      if (ok(answer)) return answer;
      if (expected.includes(answer.status)) return null;
      if (!retriable(answer.status)) {
        const key = `${kind} ${answer.status}`;
        this.acknowledged.refused[key] = (this.acknowledged.refused[key] ?? 0) + 1;
        if (process.env.SOAK_DEBUG) console.error(kind, answer.status, answer.text.slice(0, 300));
        return null;
      }
      if (Date.now() > deadline) {
        this.acknowledged.givenUp[kind] = (this.acknowledged.givenUp[kind] ?? 0) + 1;
        return null;
      }
      const retryAfter = Number(answer.headers['retry-after']);
      await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter, 10) * 1000 : Math.min(250 * 2 ** tries, 4000));
    }
  }

  /** A first visit: the proof-of-work challenge, then a guest account (kept in `players`). */
  async newGuest(): Promise<Player | null> {
    const address = this.#nextAddress++ % ADDRESSES;
    const answer = await this.write('guest', async () => {
      const challenge = await this.client.api('guest', 'GET', '/guest/challenge/', { address });
      if (!ok(challenge)) return challenge;
      const { challenge: text, difficulty } = challenge.data as { challenge: string; difficulty: number };
      const nonce = await solve(text, difficulty, async () => undefined);
      return this.client.api('guest', 'POST', '/guest/login/', { address, body: { challenge: text, nonce } });
    });
    if (!answer) return null;
    const { token, userInfo } = answer.data as { token: string; userInfo: { uid: number } };
    this.acknowledged.guests.add(userInfo.uid);
    return { uid: userInfo.uid, token, address, nextReportAt: 0 };
  }

  /** A guest that secured the account with a username and password: a member, who may buy. */
  async newMember(prefix: string): Promise<Player | null> {
    const guest = await this.newGuest();
    if (!guest) return null;
    const username = `${prefix}${randomBytes(5).toString('hex')}`;
    const answer = await this.write('member', () =>
      this.client.api('member', 'PATCH', '/member/password/', {
        token: guest.token,
        address: guest.address,
        body: { username, password: 'Harbour-Lantern-Tricky-9' },
      }),
    );
    if (!answer) return null;
    return { ...guest, token: (answer.data as { token: string }).token };
  }

  /**
   * The next player free to report a play, in turn; when none is (the pool is small for the
   * rate), the one free soonest. A play is never queued behind another on a busy player.
   */
  nextPlayer(): Player {
    const now = Date.now();
    let soonest: Player | null = null;
    for (let looked = 0; looked < this.players.length; looked++) {
      const player = this.players[this.#nextPlayer++ % this.players.length]!;
      if (player.nextReportAt <= now) return player;
      if (!soonest || player.nextReportAt < soonest.nextReportAt) soonest = player;
    }
    return soonest!;
  }

  /** One play: the play page's first report of a new play session (its id is the idempotency key). */
  async play(player: Player, appId: number): Promise<void> {
    const wait = player.nextReportAt - Date.now();
    player.nextReportAt = Math.max(Date.now(), player.nextReportAt) + 3100;
    if (wait > 0) await sleep(wait);
    const sessionId = randomBytes(12).toString('base64url');
    const body = { session_id: sessionId, loading_ms: 800 + Math.floor(Math.random() * 2000), to_gameplay_ms: 3000, play_ms: 0 };
    const answer = await this.write('play', () =>
      this.client.api('play', 'POST', `/tracking/game-sessions/${appId}`, { token: player.token, address: player.address, body }),
    );
    if (answer) this.acknowledged.plays.set(sessionId, { uid: player.uid, appId });
  }

  /** One cloud save (`Playport.data.set`): the value is a counter, so the latest acknowledged one is known. */
  async save(player: Player, appId: number, key: string, value: number): Promise<void> {
    const id = `${player.uid}/${appId}/${key}`;
    const answer = await this.write('save', () =>
      this.client.api('save', 'PUT', `/game/saves/${appId}/${key}`, {
        token: player.token,
        address: player.address,
        body: { value: { n: value, at: Date.now() } },
      }),
    );
    if (answer) {
      this.acknowledged.saves.set(id, value);
      this.acknowledged.unsettledSaves.delete(id);
    } else this.acknowledged.unsettledSaves.set(id, value);
  }

  /** One leaderboard submission (`Playport.leaderboard.submit`). */
  async score(player: Player, appId: number, board: string, score: number): Promise<void> {
    const answer = await this.write('score', () =>
      this.client.api('score', 'POST', `/game/leaderboards/${appId}/${board}/scores`, { token: player.token, address: player.address, body: { score } }),
    );
    if (answer) this.acknowledged.scores.set(player.uid, Math.max(this.acknowledged.scores.get(player.uid) ?? -1, score));
  }

  /** One sandbox purchase, as the play page and the sandbox checkout make it: the order, its checkout, the test card. */
  async purchase(buyer: Player, appId: number, sku: string): Promise<void> {
    const idempotencyKey = randomBytes(12).toString('base64url');
    const order = await this.write('order', () =>
      this.client.api('order', 'POST', `/game/pay/${appId}`, { token: buyer.token, address: buyer.address, body: { sku, idempotencyKey } }),
    );
    if (!order) return;
    const orderId = (order.data as { id: string }).id;
    this.acknowledged.orders.add(orderId);
    // The checkout, then the test card on it. Paying again on the same checkout answers `paid` once
    // the order is; a checkout asked for an order paid meanwhile is refused (409), and the play page
    // then finds the order paid, as here.
    const checkout = await this.write(
      'checkout',
      () => this.client.api('checkout', 'POST', '/payment/xsolla/create/', { token: buyer.token, address: buyer.address, body: { order_id: orderId } }),
      [409],
    );
    if (!checkout) {
      const status = await this.write('order', () =>
        this.client.api('order', 'GET', `/game/orders/${orderId}`, { token: buyer.token, address: buyer.address }),
      );
      if ((status?.data as { status?: string } | null)?.status === 'paid') this.acknowledged.paid.add(orderId);
      return;
    }
    const token = new URL((checkout.data as { url: string }).url, 'http://x').searchParams.get('token')!;
    const paid = await this.write('pay', () =>
      this.client.api('pay', 'POST', '/payment/sandbox/pay/', { address: buyer.address, body: { token, card: '4242 4242 4242 4242' } }),
    );
    if (paid && (paid.data as { outcome: string }).outcome === 'paid') this.acknowledged.paid.add(orderId);
  }

  /** A page a visitor opens. */
  async page(path: string, address: number): Promise<void> {
    await this.client.raw('page', 'GET', path, { address, headers: { accept: 'text/html' } });
  }

  /**
   * One build upload over tus: created, sent in two pieces, resumed from the offset HEAD answers
   * after a failure, started again when the upload is gone. Acknowledged by the last piece's 200.
   */
  async uploadBuild(developer: Player, appId: number, n: number): Promise<void> {
    const marker = `Soak build ${n} ${randomBytes(4).toString('hex')}`;
    const zip = await makeZip(sdkGameEntries(marker));
    const tus = { 'tus-resumable': '1.0.0' };
    const base = `/studio/games/${appId}/uploads`;
    const deadline = Date.now() + 4 * 60_000;
    let location: string | null = null;
    for (let tries = 0; Date.now() < deadline; tries++) {
      if (tries > 0) await sleep(Math.min(500 * 2 ** tries, 5000));
      if (!location) {
        const created = await this.client.api('build', 'POST', base, {
          token: developer.token,
          address: developer.address,
          headers: { ...tus, 'upload-length': String(zip.length) },
        });
        if (created.status !== 201) {
          if (!retriable(created.status)) return this.#refuse('build', created);
          continue;
        }
        location = String(created.headers.location);
      }
      const head = await this.client.raw('build', 'HEAD', location, {
        address: developer.address,
        headers: { ...tus, authorization: `Bearer ${developer.token}` },
      });
      if (head.status === 404) {
        location = null;
        continue;
      }
      if (!ok(head)) continue;
      let offset = Number(head.headers['upload-offset']);
      let finished: Answer | null = null;
      while (offset < zip.length) {
        const piece = zip.subarray(offset, Math.min(zip.length, offset + Math.ceil(zip.length / 2)));
        const sent = await this.client.api('build', 'PATCH', location.replace(/^\/serve\/api/, ''), {
          token: developer.token,
          address: developer.address,
          headers: { ...tus, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
          raw: piece,
        });
        if (sent.status === 204) offset += piece.length;
        else if (sent.status === 200) {
          finished = sent;
          break;
        } else {
          if (!retriable(sent.status) && sent.status !== 404) return this.#refuse('build', sent);
          break;
        }
      }
      if (finished) {
        const build = JSON.parse(finished.text).data as { id: number; previewUrl: string };
        this.acknowledged.builds.set(build.id, { marker, label: new URL(build.previewUrl).searchParams.get('preview')! });
        return;
      }
    }
    this.acknowledged.givenUp.build = (this.acknowledged.givenUp.build ?? 0) + 1;
  }

  #refuse(kind: string, answer: Answer): void {
    const key = `${kind} ${answer.status}`;
    this.acknowledged.refused[key] = (this.acknowledged.refused[key] ?? 0) + 1;
    if (process.env.SOAK_DEBUG) console.error(kind, answer.status, answer.text.slice(0, 300));
  }
}

/**
 * Runs `count` tasks spread evenly over `durationMs` (task i not before start + i × interval),
 * at most `concurrency` at once: when the portal is slower than the schedule, the phase lasts longer.
 */
export async function paced(count: number, durationMs: number, concurrency: number, task: (i: number, lane: number) => Promise<void>): Promise<void> {
  const startedAt = Date.now();
  const interval = count > 0 ? durationMs / count : 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async (_, lane) => {
      for (;;) {
        const i = next++;
        if (i >= count) return;
        const due = startedAt + i * interval - Date.now();
        if (due > 0) await sleep(due);
        await task(i, lane);
      }
    }),
  );
}
