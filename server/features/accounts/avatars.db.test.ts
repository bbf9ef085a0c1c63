import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { solvedChallenge } from '#server/testing/guest-challenge.ts';

const API = '/serve/api';

/** A multipart/form-data body with one file part, as a browser's FormData sends it. */
function multipart(field: string, filename: string, type: string, bytes: Buffer) {
  const boundary = `----playport${Math.random().toString(16).slice(2)}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

describe('avatar upload', () => {
  let api: TestApi;
  let uploads: string;
  let csrf: Record<string, string>;
  let token: string;

  beforeAll(async () => {
    uploads = mkdtempSync(join(tmpdir(), 'playport-uploads-'));
    api = await openTestApi({ UPLOAD_DIR: uploads });
    csrf = await api.csrfHeaders();
    const guest = await api.app.inject({ method: 'POST', url: `${API}/guest/login/`, headers: csrf, payload: await solvedChallenge(api.app) });
    token = guest.json().data.token;
  });
  afterAll(async () => {
    await api.close();
    rmSync(uploads, { recursive: true, force: true });
  });

  const webpFiles = () =>
    existsSync(uploads)
      ? readdirSync(uploads, { recursive: true })
          .map(String)
          .filter((f) => /\.(webp|tmp)$/.test(f))
      : [];
  const upload = (body: { payload: Buffer; contentType: string }, auth = token) =>
    api.app.inject({
      method: 'POST',
      url: `${API}/member/avatar/`,
      headers: { ...csrf, authorization: `Bearer ${auth}`, 'content-type': body.contentType },
      payload: body.payload,
    });

  it('turns a real PNG into webp files on disk and shows the URL in user info', async () => {
    const png = await sharp({ create: { width: 320, height: 240, channels: 4, background: '#e76f51' } })
      .png()
      .toBuffer();
    const response = await upload(multipart('avatar', 'me.png', 'image/png', png));
    expect(response.statusCode, response.body).toBe(200);
    const { data } = response.json();
    expect(data.avatar.url).toMatch(/^\/uploads\/avatars\/\d+\/[0-9a-f]{16}-256\.webp$/);
    expect(data.userInfo.avatar).toBe(data.avatar.url);
    expect(data.profile.avatarSizes).toEqual(data.avatar.sizes);
    for (const size of [64, 128, 256] as const) {
      const meta = await sharp(join(uploads, data.avatar.sizes[size].replace('/uploads/', ''))).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', size, size]);
    }
    expect(webpFiles()).toHaveLength(3);
    const info = await api.app.inject({ method: 'GET', url: `${API}/member/info/`, headers: { authorization: `Bearer ${token}` } });
    expect(info.json().data.userInfo.avatar).toBe(data.avatar.url);

    // A new avatar gets new URLs, and the old files go.
    const jpeg = await sharp({ create: { width: 100, height: 300, channels: 3, background: '#264653' } })
      .jpeg()
      .toBuffer();
    const second = (await upload(multipart('avatar', 'other.jpg', 'image/jpeg', jpeg))).json().data;
    expect(second.avatar.url).not.toBe(data.avatar.url);
    expect(webpFiles()).toHaveLength(3);
    expect(existsSync(join(uploads, data.avatar.url.replace('/uploads/', '')))).toBe(false);
  });

  it('refuses a text file renamed to .png with 422, storing nothing and keeping the avatar', async () => {
    const before = webpFiles().sort();
    const avatarBefore = (await api.app.inject({ method: 'GET', url: `${API}/member/info/`, headers: { authorization: `Bearer ${token}` } })).json().data
      .userInfo.avatar;
    const response = await upload(multipart('avatar', 'photo.png', 'image/png', Buffer.from('just some text, not an image\n'.repeat(20))));
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      code: 422,
      error: 'validation',
      message: 'The given data was invalid.',
      data: { errors: { avatar: ['Upload a PNG, JPEG, WebP or GIF image.'] } },
    });
    expect(webpFiles().sort()).toEqual(before);
    const after = (await api.app.inject({ method: 'GET', url: `${API}/member/info/`, headers: { authorization: `Bearer ${token}` } })).json().data.userInfo
      .avatar;
    expect(after).toBe(avatarBefore);
  });

  it('refuses a file over 5 MB and a request without a file with 422, in the caller language', async () => {
    const big = await upload(multipart('avatar', 'big.png', 'image/png', Buffer.alloc(5 * 1024 * 1024 + 10, 1)));
    expect(big.statusCode).toBe(422);
    expect(big.json().data.errors.avatar).toEqual(['The image must be at most 5 MB.']);
    const empty = await api.app.inject({
      method: 'POST',
      url: `${API}/member/avatar/`,
      headers: { ...csrf, authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=xyz', locale: 'zh-CN' },
      payload: '--xyz--\r\n',
    });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().data.errors.avatar).toEqual(['请选择要上传的图片。']);
  });

  it('answers 415 to a JSON body, 401 without a token and 419 without the XSRF token', async () => {
    const json = await api.app.inject({
      method: 'POST',
      url: `${API}/member/avatar/`,
      headers: { ...csrf, authorization: `Bearer ${token}` },
      payload: { avatar: 'x' },
    });
    expect(json.statusCode).toBe(415);
    const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const body = multipart('avatar', 'a.png', 'image/png', png);
    const anonymous = await api.app.inject({
      method: 'POST',
      url: `${API}/member/avatar/`,
      headers: { ...csrf, 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(anonymous.statusCode).toBe(401);
    const noCsrf = await api.app.inject({
      method: 'POST',
      url: `${API}/member/avatar/`,
      headers: { authorization: `Bearer ${token}`, 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(noCsrf.statusCode).toBe(419);
  });

  it('keeps multipart parsing to the avatar route', async () => {
    const body = multipart('nickname', 'n.txt', 'text/plain', Buffer.from('Hello'));
    const response = await api.app.inject({
      method: 'PATCH',
      url: `${API}/member/nickname/`,
      headers: { ...csrf, authorization: `Bearer ${token}`, 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(response.statusCode).toBe(415);
  });
});
