import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGamesOrigin } from '#server/features/games/games-origin.ts';
import { FIXTURES, openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { type TestPlayer, testPlayers } from '#server/testing/test-players.ts';
import { STUDIO_LIMITS } from './studio-games.service.ts';

const png = (width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: '#2a9d8f' } })
    .png()
    .toBuffer();

/** A multipart body with one file part, as a browser's FormData sends it. */
function multipart(field: string, bytes: Buffer, fileName = 'image.png', type = 'image/png') {
  const boundary = `----studio${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

const texts = {
  en: { title: 'Lantern Run', summary: 'Carry the light home.', description: 'A short night run through the harbour.', instructions: 'Arrow keys move.' },
  'zh-CN': { title: '灯笼快跑', summary: '把灯带回家。', description: '穿过港口的夜跑。' },
};

const metadata = (images: { thumbnail: string | null; cover?: string | null; screenshots?: string[] }) => ({
  i18n: texts,
  categories: ['puzzle'],
  tags: ['classic'],
  orientation: 'landscape',
  width: 800,
  height: 450,
  backends: ['https://api.lantern.example'],
  thumbnail: images.thumbnail,
  cover: images.cover ?? null,
  screenshots: images.screenshots ?? [],
  items: [{ sku: 'extra-life', price: 199, currency: 'USD', kind: 'consumable', i18n: { en: { name: 'Extra life' }, 'zh-CN': { name: '额外生命' } } }],
  leaderboards: [{ id: 'best-time', order: 'asc', format: 'time', min: 0, max: 3_600_000, i18n: { en: { name: 'Best time' }, 'zh-CN': { name: '最佳用时' } } }],
  achievements: [
    { id: 'first-run', i18n: { en: { name: 'First run', description: 'Finish a run.' }, 'zh-CN': { name: '第一次', description: '完成一次奔跑。' } } },
  ],
});

describe('Studio games (decision 096)', () => {
  let api: TestApi;
  const players = testPlayers(() => api, 96);
  let owner: TestPlayer;
  let other: TestPlayer;
  let member: TestPlayer;
  let guest: TestPlayer;
  let gameId: number;
  const slug = `lantern-${randomBytes(3).toString('hex')}`;

  const upload = (id: number, token: string | undefined, bytes: Buffer) => {
    const body = multipart('image', bytes);
    return api.call('POST', `/studio/games/${id}/images/`, { token, body: body.payload, headers: { 'content-type': body.contentType } });
  };

  beforeAll(async () => {
    api = await openTestApi();
    [owner, other, member, guest] = await Promise.all([players.newMember(), players.newMember(), players.newMember(), players.newGuest()]);
    for (const [who, name] of [
      [owner, 'Tidepool Games'],
      [other, 'Other Studio'],
    ] as const) {
      const saved = await api.call('PUT', '/studio/profile/', { token: who.token, body: { studioName: name, contactEmail: 'team@studio.test' } });
      expect(saved.statusCode).toBe(200);
    }
    const created = await api.call('POST', '/studio/games/', { token: owner.token, body: { slug, i18n: { en: { title: 'Lantern Run' } } } });
    expect(created.statusCode).toBe(201);
    gameId = created.json().data.id;
  });
  afterAll(async () => {
    await api.close();
  });

  it('creates a draft game with a unique DNS-label slug', async () => {
    const created = await api.call('GET', `/studio/games/${gameId}/`, { token: owner.token });
    expect(created.json().data).toMatchObject({
      slug,
      published: false,
      entryUrl: `/games/${slug}/index.html`,
      missing: ['summary', 'description', 'categories', 'thumbnail'],
    });
    const row = await api.database.db.selectFrom('apps').select(['type', 'published', 'developer_user_id']).where('id', '=', gameId).executeTakeFirstOrThrow();
    expect(row).toEqual({ type: 'game', published: 0, developer_user_id: owner.userInfo.uid });

    const taken = await api.call('POST', '/studio/games/', { token: other.token, body: { slug, i18n: { en: { title: 'Copy' } } } });
    expect(taken.statusCode).toBe(422);
    expect(Object.keys(taken.json().data.errors)).toEqual(['slug']);
    // A house game's slug is taken too.
    const house = await api.call('POST', '/studio/games/', { token: other.token, body: { slug: 'alpha', i18n: { en: { title: 'Alpha' } } } });
    expect(house.statusCode).toBe(422);
    for (const bad of ['Upper', 'under_score', '-dash', 'a'.repeat(64), '', 'dot.ted']) {
      const refused = await api.call('POST', '/studio/games/', { token: other.token, body: { slug: bad, i18n: { en: { title: 'Bad' } } } });
      expect(refused.statusCode, bad).toBe(422);
      expect(refused.json().data.errors).toHaveProperty('slug');
    }
    const noTitle = await api.call('POST', '/studio/games/', { token: other.token, body: { slug: 'no-title-here' } });
    expect(noTitle.statusCode).toBe(422);
  });

  it('refuses every call to each role that may not make it', async () => {
    const image = await png();
    const body = metadata({ thumbnail: null });
    const calls: Array<{ name: string; send: (token: string | undefined) => ReturnType<TestApi['call']>; expected: Record<string, number> }> = [
      {
        name: 'GET profile',
        send: (token) => api.call('GET', '/studio/profile/', { token }),
        expected: { none: 401, guest: 403, member: 200, other: 200, owner: 200 },
      },
      {
        name: 'PUT profile',
        send: (token) => api.call('PUT', '/studio/profile/', { token, body: { studioName: 'Same Name', contactEmail: 'same@studio.test' } }),
        expected: { none: 401, guest: 403, member: 200, other: 200, owner: 200 },
      },
      {
        name: 'GET games',
        send: (token) => api.call('GET', '/studio/games/', { token }),
        expected: { none: 401, guest: 403, member: 403, other: 200, owner: 200 },
      },
      {
        name: 'POST games',
        send: (token) =>
          api.call('POST', '/studio/games/', { token, body: { slug: `m-${randomBytes(4).toString('hex')}`, i18n: { en: { title: 'Matrix' } } } }),
        expected: { none: 401, guest: 403, member: 403, other: 201, owner: 201 },
      },
      {
        name: 'GET game',
        send: (token) => api.call('GET', `/studio/games/${gameId}/`, { token }),
        expected: { none: 401, guest: 403, member: 403, other: 404, owner: 200 },
      },
      {
        name: 'PUT game',
        send: (token) => api.call('PUT', `/studio/games/${gameId}/`, { token, body }),
        expected: { none: 401, guest: 403, member: 403, other: 404, owner: 200 },
      },
      { name: 'POST image', send: (token) => upload(gameId, token, image), expected: { none: 401, guest: 403, member: 403, other: 404, owner: 201 } },
    ];
    // The member in this matrix has no profile: the profile call above creates one only at the end.
    const roles = { none: undefined, guest: guest.token, other: other.token, owner: owner.token, member: member.token };
    const answers: Record<string, Record<string, number>> = {};
    for (const call of calls) {
      answers[call.name] = {};
      for (const [role, token] of Object.entries(roles)) {
        if (call.name === 'PUT profile' && role === 'member') continue;
        answers[call.name]![role] = (await call.send(token)).statusCode;
      }
    }
    answers['PUT profile']!.member = (await calls[1]!.send(member.token)).statusCode;
    expect(answers).toEqual(Object.fromEntries(calls.map((c) => [c.name, c.expected])));
    // Another developer's refused save changed nothing.
    const after = await api.call('GET', `/studio/games/${gameId}/`, { token: owner.token });
    expect(after.json().data.i18n.en.title).toBe('Lantern Run');
  });

  it('keeps the profile validated and tells a guest why not', async () => {
    const bad = await api.call('PUT', '/studio/profile/', { token: other.token, body: { studioName: ' ', contactEmail: 'not-an-address' } });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().data.errors).sort()).toEqual(['contactEmail', 'studioName']);
    const profile = await api.call('GET', '/studio/profile/', { token: other.token });
    expect(profile.json().data.profile).toMatchObject({ studioName: 'Same Name', contactEmail: 'same@studio.test' });
    const asGuest = await api.call('PUT', '/studio/profile/', { token: guest.token, body: { studioName: 'Guest Studio', contactEmail: 'g@studio.test' } });
    expect(asGuest.json().message).toMatch(/username and password/);
    expect(await api.services.developers.profile(guest.userInfo.uid)).toBeNull();
  });

  it("saves a game's texts, terms, images, items and records, and lists it for its developer only", async () => {
    const thumbnail = (await upload(gameId, owner.token, await png())).json().data.url as string;
    const cover = (await upload(gameId, owner.token, await png(400, 100))).json().data.url as string;
    expect(thumbnail).toMatch(/^\/uploads\/catalogue\/[0-9a-f]{20}\.webp$/);
    const stored = await api.services.uploads.read(thumbnail.slice('/uploads/'.length));
    expect((await sharp(stored!).metadata()).format).toBe('webp');

    const saved = await api.call('PUT', `/studio/games/${gameId}/`, { token: owner.token, body: metadata({ thumbnail, cover, screenshots: [cover] }) });
    expect(saved.statusCode).toBe(200);
    const game = saved.json().data;
    expect(game).toMatchObject({ thumbnail, cover, screenshots: [cover], categories: ['puzzle'], tags: ['classic'], orientation: 'landscape', missing: [] });
    expect(game.i18n['zh-CN']).toEqual({ ...texts['zh-CN'], instructions: 'Arrow keys move.' });
    expect(game.items).toEqual([
      { sku: 'extra-life', price: 199, currency: 'USD', kind: 'consumable', i18n: { en: { name: 'Extra life' }, 'zh-CN': { name: '额外生命' } } },
    ]);
    expect(game.leaderboards[0]).toMatchObject({ id: 'best-time', order: 'asc', format: 'time', periods: ['all-time'], backend_only: false });
    expect(game.achievements[0]).toMatchObject({ id: 'first-run', backend_only: false });

    // An item no longer listed stops being sold but stays for the orders that name it.
    const fewer = await api.call('PUT', `/studio/games/${gameId}/`, { token: owner.token, body: { ...metadata({ thumbnail }), items: [] } });
    expect(fewer.json().data.items).toEqual([]);
    const items = await api.database.db.selectFrom('app_items').select(['sku', 'active']).where('app_id', '=', gameId).execute();
    expect(items).toEqual([{ sku: 'extra-life', active: 0 }]);
    await api.call('PUT', `/studio/games/${gameId}/`, { token: owner.token, body: metadata({ thumbnail, cover }) });

    const mine = await api.call('GET', '/studio/games/', { token: owner.token, headers: { locale: 'zh-CN' } });
    expect(mine.json().data.games).toContainEqual(expect.objectContaining({ id: gameId, slug, title: '灯笼快跑', thumbnail, published: false }));
    const theirs = await api.call('GET', '/studio/games/', { token: other.token });
    expect(theirs.json().data.games.map((g: { id: number }) => g.id)).not.toContain(gameId);
  });

  it('answers every problem of a save at once and changes nothing', async () => {
    const before = (await api.call('GET', `/studio/games/${gameId}/`, { token: owner.token })).json().data;
    const body = {
      ...metadata({ thumbnail: '/uploads/catalogue/0123456789abcdef0123.webp', screenshots: ['https://elsewhere.example/x.png'] }),
      categories: ['puzzle', 'no-such-category'],
      tags: ['no-such-tag'],
      backends: ['http://api.example.com', 'https://api.example.com/path'],
      items: [
        { sku: 'coin', price: 10, kind: 'consumable', i18n: { en: { name: 'Coin' } } },
        { sku: 'coin', price: 0, kind: 'forever', i18n: { en: { name: '' } } },
      ],
      leaderboards: [{ id: 'b', order: 'desc', min: 10, max: 5, i18n: { en: { name: 'B' }, 'zh-CN': { name: 'B' } } }],
    };
    const refused = await api.call('PUT', `/studio/games/${gameId}/`, { token: owner.token, body });
    expect(refused.statusCode).toBe(422);
    // The schema's problems come first; the rest (unknown terms, images, duplicates) on a body the schema accepts.
    expect(Object.keys(refused.json().data.errors)).toEqual(
      expect.arrayContaining(['backends.0', 'backends.1', 'items.1.price', 'items.1.kind', 'items.1.i18n.en.name', 'leaderboards.0.max']),
    );
    const schemaClean = { ...body, backends: [], items: [body.items[0], body.items[0]], leaderboards: [] };
    const second = await api.call('PUT', `/studio/games/${gameId}/`, { token: owner.token, body: schemaClean });
    expect(second.statusCode).toBe(422);
    expect(Object.keys(second.json().data.errors).sort()).toEqual(['categories.1', 'items.1', 'screenshots.0', 'tags.0', 'thumbnail']);
    const after = (await api.call('GET', `/studio/games/${gameId}/`, { token: owner.token })).json().data;
    expect(after).toEqual(before);
  });

  it('takes only real origins as backends, naming each refused value, and keeps the origin as rebuilt (decision 107)', async () => {
    const before = (await api.call('GET', `/studio/games/${gameId}/`, { token: owner.token })).json().data;
    const attacks = [
      'https://x;frame-ancestors',
      'https://*',
      'https://a,b',
      "https://x'",
      'https://x frame-ancestors',
      'https://u@api.example.com',
      'https://api.example.com/?',
    ];
    const body = { ...metadata({ thumbnail: null }), backends: ['https://api.lantern.example', ...attacks] };
    for (const locale of ['en', 'zh-CN']) {
      const refused = await api.call('PUT', `/studio/games/${gameId}/`, { token: owner.token, body, headers: { locale } });
      expect(refused.statusCode).toBe(422);
      const errors = refused.json().data.errors as Record<string, string[]>;
      expect(Object.keys(errors).sort()).toEqual(attacks.map((_, i) => `backends.${i + 1}`).sort());
      attacks.forEach((value, i) => expect(errors[`backends.${i + 1}`]![0], value).toContain(`${value}`));
      expect(errors['backends.1']![0]).toContain(locale === 'en' ? 'is not an origin' : '不是形如');
    }
    expect((await api.call('GET', `/studio/games/${gameId}/`, { token: owner.token })).json().data).toEqual(before);

    const saved = await api.call('PUT', `/studio/games/${gameId}/`, {
      token: owner.token,
      body: { ...metadata({ thumbnail: null }), backends: ['https://API.Lantern.example/', 'wss://live.lantern.example:443'] },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data.backends).toEqual(['https://api.lantern.example', 'wss://live.lantern.example']);
    const stored = await api.database.db.selectFrom('apps').select('backend_origins').where('id', '=', gameId).executeTakeFirstOrThrow();
    expect(JSON.parse(stored.backend_origins)).toEqual(['https://api.lantern.example', 'wss://live.lantern.example']);
  });

  it('builds the games origin policy from clean origins even when a bad value is already stored (decision 107)', async () => {
    const alpha = await api.database.db.selectFrom('apps').select(['id', 'backend_origins']).where('slug', '=', 'alpha').executeTakeFirstOrThrow();
    const stored = ['https://api.alpha.example', 'https://x;frame-ancestors https://evil.test', 'https://*', 'https://a,b', "https://x'"];
    await api.database.db
      .updateTable('apps')
      .set({ backend_origins: JSON.stringify(stored) })
      .where('id', '=', alpha.id)
      .execute();
    api.services.catalogue.invalidate();
    try {
      const origin = await buildGamesOrigin({ config: api.config, catalogue: api.services.catalogue, gamesDir: resolve(FIXTURES, 'games'), logger: false });
      const host = `alpha.${new URL(api.config.games.origin).host}`;
      const response = await origin.inject({ method: 'GET', url: '/index.html', headers: { host } });
      await origin.close();
      expect(response.statusCode).toBe(200);
      const policy = String(response.headers['content-security-policy']);
      expect(policy).toContain("connect-src 'self' data: blob: https://api.alpha.example;");
      expect(policy.match(/frame-ancestors/g)).toHaveLength(1);
      expect(policy).not.toMatch(/evil|\*|,|x'/);
    } finally {
      await api.database.db.updateTable('apps').set({ backend_origins: alpha.backend_origins }).where('id', '=', alpha.id).execute();
      api.services.catalogue.invalidate();
    }
  });

  it('refuses images that are not images, too large, or too many parts', async () => {
    const text = await upload(gameId, owner.token, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'));
    expect(text.statusCode).toBe(422);
    expect(text.json().data.errors).toHaveProperty('image');
    const empty = await upload(gameId, owner.token, Buffer.alloc(0));
    expect(empty.statusCode).toBe(422);
    const huge = await upload(gameId, owner.token, Buffer.alloc(5 * 1024 * 1024 + 1, 1));
    expect(huge.statusCode).toBe(422);
    const json = await api.call('POST', `/studio/games/${gameId}/images/`, { token: owner.token, body: { image: 'x' } });
    expect(json.statusCode).toBe(415);
  });

  it('limits how many games and images one developer makes', async () => {
    const busy = await players.newMember();
    await api.call('PUT', '/studio/profile/', { token: busy.token, body: { studioName: 'Busy Studio', contactEmail: 'busy@studio.test' } });
    const created = await api.call('POST', '/studio/games/', {
      token: busy.token,
      body: { slug: `busy-${randomBytes(3).toString('hex')}`, i18n: { en: { title: 'Busy' } } },
    });
    const id = created.json().data.id as number;
    const subject = String(busy.userInfo.uid);
    for (const rule of [STUDIO_LIMITS.games, STUDIO_LIMITS.images]) {
      for (let used = rule === STUDIO_LIMITS.games ? 1 : 0; used < rule.limit; used++) await api.services.rateLimiter.consume(rule, subject);
    }
    const game = await api.call('POST', '/studio/games/', {
      token: busy.token,
      body: { slug: `busy-${randomBytes(3).toString('hex')}`, i18n: { en: { title: 'One more' } } },
    });
    expect(game.statusCode).toBe(429);
    expect(Number(game.headers['retry-after'])).toBeGreaterThan(0);
    expect((await upload(id, busy.token, await png())).statusCode).toBe(429);
    // Another developer is not held back by it.
    expect((await upload(gameId, owner.token, await png(33, 33))).statusCode).toBe(201);
  });

  it('keeps an unpublished game out of lists, search, its page, the sitemap, the games origin and game calls', async () => {
    const word = 'lanternrunquest';
    const body = metadata({ thumbnail: null });
    body.i18n = { ...texts, en: { ...texts.en, summary: `A ${word} in the dark.` } };
    expect((await api.call('PUT', `/studio/games/${gameId}/`, { token: owner.token, body })).statusCode).toBe(200);

    const hidden = async () => {
      const search = await api.call('GET', `/app/list/?q=${word}&limit=48`);
      const all = await api.call('GET', '/app/list/?limit=48');
      const inCategory = await api.call('GET', '/app/list/?category=puzzle&limit=48');
      const info = await api.call('GET', `/app/info/?slug=${slug}`);
      const config = await api.call('GET', `/game/config/${gameId}`);
      const sitemap = await api.services.sitemap.xml('http://localhost');
      const host = `${slug}.${new URL(api.config.games.origin).hostname}`;
      api.services.catalogue.invalidate();
      return {
        search: search
          .json()
          .data.items.map((a: { slug: string }) => a.slug)
          .includes(slug),
        list: all
          .json()
          .data.items.map((a: { slug: string }) => a.slug)
          .includes(slug),
        category: inCategory
          .json()
          .data.items.map((a: { slug: string }) => a.slug)
          .includes(slug),
        info: info.statusCode,
        config: config.statusCode,
        sitemap: sitemap.includes(`/play/${slug}`) || sitemap.includes(`/${slug}`),
        origin: (await api.services.catalogue.hostedGame(host)) !== null,
      };
    };
    expect(await hidden()).toEqual({ search: false, list: false, category: false, info: 404, config: 404, sitemap: false, origin: false });
    const login = await api.call('POST', `/game/login/${gameId}`, { token: owner.token });
    expect(login.statusCode).toBe(404);

    // Once published (an operator's approval, another part), the same game is found everywhere: the Studio kept its search index.
    await api.database.db.updateTable('apps').set({ published: 1 }).where('id', '=', gameId).execute();
    api.services.catalogue.invalidate();
    const shown = await hidden();
    expect(shown).toMatchObject({ search: true, list: true, category: true, info: 200, config: 200, sitemap: true });
    await api.database.db.updateTable('apps').set({ published: 0 }).where('id', '=', gameId).execute();
    api.services.catalogue.invalidate();
  });
});
