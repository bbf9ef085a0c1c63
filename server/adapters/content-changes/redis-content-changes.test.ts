import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '#server/testing/free-port.ts';
import { LocalContentChanges } from './content-changes.ts';
import { RedisContentChanges } from './redis-content-changes.ts';

/*
 * Content changes over a private Redis server (Debian's redis-server, on a free loopback port,
 * nothing saved): heard by the other subscribers, never twice by the announcer, and a lost
 * connection counts as a change once it is back.
 */

const REDIS_SERVER = '/usr/bin/redis-server';

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  for (let attempt = 0; attempt < 50; attempt++) {
    const open = await fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      (error: { cause?: { code?: string } }) => error.cause?.code !== 'ECONNREFUSED',
    );
    if (open) return child;
    await new Promise((done) => setTimeout(done, 50));
  }
  throw new Error('redis-server did not start');
}

/** Counts the changes a listener heard; `next` settles at the next one after `arm()`. */
class Heard {
  count = 0;
  next: Promise<void> = Promise.resolve();
  #wake: (() => void) | null = null;
  readonly listener = () => {
    this.count++;
    this.#wake?.();
  };
  arm(): void {
    this.next = new Promise<void>((done) => (this.#wake = done));
  }
}

describe('content changes without Redis', () => {
  it('reach this process’s listeners only, at once', async () => {
    const changes = new LocalContentChanges();
    let count = 0;
    changes.onChange(() => count++);
    await changes.announce();
    expect(count).toBe(1);
  });
});

// CI's machines have redis-server (.ci/run starts it when Redis is down): a skip there would hide a broken set-up.
if (process.env.CI === 'true' && !existsSync(REDIS_SERVER)) {
  describe('content changes through Redis (set-up)', () => {
    it('has redis-server installed', () => {
      expect({ installed: false, path: REDIS_SERVER }).toEqual({ installed: true, path: REDIS_SERVER });
    });
  });
}

describe.skipIf(!existsSync(REDIS_SERVER))('content changes through Redis', () => {
  let port: number;
  let redis: ChildProcess;
  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
  });
  afterAll(() => {
    redis?.kill();
  });

  it('reach every instance once, the announcer included', async () => {
    const url = `redis://127.0.0.1:${port}`;
    const [one, two, otherDeployment] = [
      new RedisContentChanges(url, { prefix: 'a' }),
      new RedisContentChanges(url, { prefix: 'a' }),
      new RedisContentChanges(url, { prefix: 'b' }),
    ];
    const [first, second, other] = [new Heard(), new Heard(), new Heard()];
    one.onChange(first.listener);
    two.onChange(second.listener);
    otherDeployment.onChange(other.listener);
    await Promise.all([one.listen(), two.listen(), otherDeployment.listen()]);
    second.arm();
    await one.announce();
    await second.next;
    // A round trip later, nothing more has arrived at the announcer or the other prefix.
    await two.announce();
    await new Promise((done) => setTimeout(done, 100));
    expect([first.count, second.count, other.count]).toEqual([2, 2, 0]);
    await Promise.all([one.close(), two.close(), otherDeployment.close()]);
  });

  it('count a reconnection as a change (announcements meanwhile were missed), and announce locally while Redis is away', async () => {
    const url = `redis://127.0.0.1:${port}`;
    const listening = new RedisContentChanges(url);
    const heard = new Heard();
    listening.onChange(heard.listener);
    await listening.listen();
    redis.kill();
    await new Promise((done) => redis.once('exit', done));
    const announcer = new RedisContentChanges(url, { onError: () => undefined });
    let local = 0;
    announcer.onChange(() => local++);
    await announcer.announce();
    expect(local).toBe(1);
    heard.arm();
    redis = await startRedis(port);
    await heard.next;
    expect(heard.count).toBe(1);
    await Promise.all([listening.close(), announcer.close()]);
  }, 15_000);
});
