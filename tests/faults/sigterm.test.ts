// SIGTERM drains: the server stops accepting connections at once, lets a request in flight
// finish and be answered, then exits with status 0 (decision 077).
import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import { randomBytes } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { afterAll, expect, inject, it } from 'vitest';
import { Client, freshSqliteDatabase, killServers, sleep, startServer } from './support.ts';

const sqlite = freshSqliteDatabase(inject('faults').sqliteTemplate);
afterAll(async () => {
  await killServers();
  rmSync(sqlite.folder, { recursive: true, force: true });
});

it('finishes a slow request in flight, refuses new connections and exits with 0', async () => {
  const server = await startServer({ DATABASE_URL: sqlite.url });
  const client = new Client(server.origin);
  const member = await client.newMember(`term_${randomBytes(4).toString('hex')}`);
  const appId = (await client.call<{ items: Array<{ id: number }> }>('GET', '/app/list/')).data.items[0]!.id;
  const xsrf = await client.csrfToken();

  // A slow upload: the headers and half of the body now, the rest after SIGTERM.
  const body = JSON.stringify({ app_id: appId });
  const socket = connect(server.port, '127.0.0.1');
  await new Promise((done) => socket.once('connect', done));
  let answer = '';
  socket.on('data', (chunk) => (answer += chunk.toString()));
  const closed = new Promise((done) => socket.once('close', done));
  socket.write(
    [
      'POST /serve/api/member/played/ HTTP/1.1',
      `Host: 127.0.0.1:${server.port}`,
      `Authorization: Bearer ${member.token}`,
      `Cookie: XSRF-TOKEN=${xsrf}`,
      `X-XSRF-TOKEN: ${decodeURIComponent(xsrf)}`,
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
      '',
      body.slice(0, 5),
    ].join('\r\n'),
  );
  await sleep(300);

  const signalledAt = Date.now();
  server.child.kill('SIGTERM');
  // New connections are refused while the request in flight is still being answered.
  const refused = await waitForRefusal(server.origin);
  expect(refused).toBe(true);
  expect(server.child.exitCode).toBeNull();

  await sleep(1000);
  socket.end(body.slice(5));
  await closed;
  const { code, signal } = await server.exited;
  const drainMs = Date.now() - signalledAt;

  expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 200, data: { appId } });
  expect({ code, signal }).toEqual({ code: 0, signal: null });
  console.info(`SIGTERM: drained and exited ${drainMs} ms after the signal, with the slow request answered`);

  // The play it recorded is in the database the server closed.
  const database = new SQLite(sqlite.url.slice('file:'.length), { readonly: true });
  try {
    expect(database.prepare('select play_count from played_games where user_id = ? and app_id = ?').get(member.uid, appId)).toEqual({ play_count: 1 });
  } finally {
    database.close();
  }
}, 90_000);

/** Tries to connect for up to 5 s; true once a connection is refused. */
async function waitForRefusal(origin: string): Promise<boolean> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const refused = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(1000) }).then(
      () => false,
      (error: Error & { cause?: { code?: string } }) => error.cause?.code === 'ECONNREFUSED',
    );
    if (refused) return true;
    await sleep(100);
  }
  return false;
}
