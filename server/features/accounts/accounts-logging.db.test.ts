import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiInstance, csrfHeadersFor, openApiInstance } from '#server/testing/api-instance.ts';
import { openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { solvedChallenge } from '#server/testing/guest-challenge.ts';

const API = '/serve/api';

describe('accounts logs', () => {
  let api: TestApi;
  let logged: ApiInstance;
  const lines: string[] = [];
  const uploads = mkdtempSync(join(tmpdir(), 'playport-log-uploads-'));

  beforeAll(async () => {
    api = await openTestApi();
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    // The most talkative level and no redaction: only the code itself can keep secrets out.
    logged = await openApiInstance(api.database, { env: { UPLOAD_DIR: uploads }, logger: { level: 'trace', stream } });
  });
  afterAll(async () => {
    await logged.close();
    await api.close();
    rmSync(uploads, { recursive: true, force: true });
  });

  it('never contain a token, a password, a fingerprint or a device id', async () => {
    const app = logged.app;
    const csrf = await csrfHeadersFor(app);
    const secrets: string[] = [];
    const call = async (method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown, token?: string) => {
      const response = await app.inject({
        method,
        url: `${API}${path}`,
        headers: { ...csrf, ...(token ? { authorization: `Bearer ${token}` } : {}) },
        ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
      });
      return response;
    };

    const fingerprint = 'c0ffee00c0ffee00c0ffee00c0ffee00';
    const deviceId = 'Dev1ce-Id-0f-This-Browser_kept-in-storage';
    secrets.push(fingerprint, deviceId);
    const guest = (await call('POST', '/guest/login/', { fingerprint, deviceId, ...(await solvedChallenge(app)) })).json().data.token as string;
    secrets.push(guest);
    const device = (await call('POST', '/fingerprint/login/', { fingerprint, deviceId })).json().data.token as string;
    secrets.push(device);
    const password = 'Sup3r-Secret-Passphrase';
    secrets.push(password);
    const registered = await call('PATCH', '/member/password/', { username: 'logger_1', password }, guest);
    expect(registered.statusCode).toBe(200);
    const rotated = registered.json().data.token as string;
    secrets.push(rotated);
    const wrongPassword = 'Wr0ng-Secret-Passphrase';
    secrets.push(wrongPassword);
    expect((await call('POST', '/username/login/', { username: 'logger_1', password: wrongPassword })).statusCode).toBe(401);
    expect((await call('PATCH', '/member/password/', { password: 'N3w-Secret-Passphrase', currentPassword: wrongPassword }, rotated)).statusCode).toBe(422);
    secrets.push('N3w-Secret-Passphrase');
    const member = (await call('POST', '/username/login/', { username: 'logger_1', password })).json().data.token as string;
    secrets.push(member);
    expect((await call('PATCH', '/member/password/', { password: 'short' }, member)).statusCode).toBe(422);
    secrets.push('short');
    expect((await call('GET', '/member/info/', undefined, member)).statusCode).toBe(200);
    expect((await call('GET', '/member/info/', undefined, `${member}x`)).statusCode).toBe(401);
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    const boundary = 'logboundary';
    const upload = (bytes: Buffer) =>
      app.inject({
        method: 'POST',
        url: `${API}/member/avatar/`,
        headers: { ...csrf, authorization: `Bearer ${member}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: Buffer.concat([
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
          bytes,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
      });
    expect((await upload(Buffer.from('not an image'))).statusCode).toBe(422);
    expect((await upload(png)).statusCode).toBe(200);
    // A body that is not JSON: parser errors quote the start of the text they failed on.
    const broken = 'password=Br0ken-Secret-Body';
    secrets.push(broken, 'Br0ken-Secret-Body');
    const malformed = await app.inject({
      method: 'POST',
      url: `${API}/username/login/`,
      headers: { ...csrf, 'content-type': 'application/json' },
      payload: broken,
    });
    expect(malformed.statusCode).toBe(400);
    expect((await call('POST', '/logout/', undefined, member)).json().data).toEqual({ revoked: true });

    const log = lines.join('');
    expect(lines.length).toBeGreaterThan(20);
    expect(log).toContain('/serve/api/username/login/');
    for (const secret of secrets) expect(log, secret).not.toContain(secret);
    // Nor the secret half of any token on its own.
    for (const token of [guest, device, rotated, member]) expect(log).not.toContain(token.split('|')[1]);
  });
});
