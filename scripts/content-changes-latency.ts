// `node scripts/content-changes-latency.ts [runs]`: how long a content change announced by one
// process takes to reach another's listener through Redis (REDIS_URL, default 127.0.0.1:6379),
// over two separate connections as between two instances. Prints median, p95 and the longest.
import { randomBytes } from 'node:crypto';
import { RedisContentChanges } from '../server/adapters/content-changes/redis-content-changes.ts';

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const runs = Number(process.argv[2] ?? 300);
const prefix = `latency-${randomBytes(4).toString('hex')}`;
const announcer = new RedisContentChanges(url, { prefix });
const listener = new RedisContentChanges(url, { prefix });
let heard: () => void = () => undefined;
listener.onChange(() => heard());
await listener.listen();

const times: number[] = [];
for (let run = 0; run < runs; run++) {
  const arrived = new Promise<void>((done) => (heard = done));
  const started = performance.now();
  await announcer.announce();
  await arrived;
  times.push(performance.now() - started);
}
times.sort((x, y) => x - y);
const at = (share: number) => times[Math.min(times.length - 1, Math.floor(share * times.length))]!.toFixed(2);
console.log(`${runs} announcements: median ${at(0.5)} ms, p95 ${at(0.95)} ms, longest ${at(1)} ms`);
await Promise.all([announcer.close(), listener.close()]);
