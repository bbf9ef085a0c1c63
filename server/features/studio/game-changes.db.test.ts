import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertReviewedBuild } from '#server/testing/developer-games.ts';
import { freePort } from '#server/testing/free-port.ts';
import { closeTestApiWithXsolla, idempotencyKey, openTestApiWithXsolla, testOrders, type XsollaStandIn } from '#server/testing/test-orders.ts';
import { openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { type TestPlayer, testPlayers } from '#server/testing/test-players.ts';

const form = (version: { summary: string; price: number; backend: string; category?: string; extraItem?: boolean }) => ({
  i18n: {
    en: { title: 'Harbour Lights', summary: version.summary, description: 'Guide the boats home before the fog.' },
    'zh-CN': { title: '港口灯火', summary: '在雾来之前引船回港。', description: '在雾来之前引船回港。' },
  },
  categories: [version.category ?? 'puzzle'],
  tags: ['classic'],
  orientation: 'landscape',
  width: 800,
  height: 450,
  backends: [version.backend],
  thumbnail: null,
  cover: null,
  screenshots: [],
  items: [
    { sku: 'fog-lamp', price: version.price, currency: 'USD', kind: 'consumable', i18n: { en: { name: 'Fog lamp' }, 'zh-CN': { name: '雾灯' } } },
    ...(version.extraItem
      ? [{ sku: 'gold-hull', price: 299, currency: 'USD', kind: 'permanent', i18n: { en: { name: 'Gold hull' }, 'zh-CN': { name: '金船身' } } }]
      : []),
  ],
  leaderboards: [],
  achievements: [],
});

/** The whole form numbered n: every field that players see says which save it came from. */
const snapshot = (n: number) => form({ summary: `version ${n}`, price: 100 + n, backend: `https://v${n}.harbour.example` });

/** A Studio game with the form saved as a draft, then published as an operator's approval of a build publishes it. */
async function liveGame(api: TestApi, developer: TestPlayer, reviewer: TestPlayer, summary: string): Promise<{ id: number; slug: string }> {
  const slug = `harbour-${randomBytes(3).toString('hex')}`;
  const created = await api.call('POST', '/studio/games/', { token: developer.token, body: { slug, i18n: { en: { title: 'Harbour Lights' } } } });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().data.id as number;
  const draft = await api.call('PUT', `/studio/games/${id}/`, {
    token: developer.token,
    body: form({ summary, price: 199, backend: 'https://api.harbour.example' }),
  });
  expect(draft.statusCode, draft.body).toBe(200);
  expect(draft.json().data.review).toBeNull();
  const build = await insertReviewedBuild(api.database.db, {
    appId: id,
    version: 1,
    status: 'approved',
    uploadedBy: developer.userInfo.uid,
    reviewedBy: reviewer.userInfo.uid,
  });
  await api.database.db.updateTable('apps').set({ published: 1, live_build_id: build.id }).where('id', '=', id).execute();
  api.services.catalogue.invalidate();
  return { id, slug };
}

/** What players get of the game: its page, its categories, the games origin's backends, its items' prices. */
async function served(api: TestApi, target: { id: number; slug: string }) {
  const info = await api.call('GET', `/app/info/?slug=${target.slug}`);
  expect(info.statusCode, info.body).toBe(200);
  const config = await api.call('GET', `/game/config/${target.id}`);
  const hosted = await api.services.catalogue.hostedGame(`${target.slug}.${new URL(api.config.games.origin).hostname}`);
  return {
    summary: info.json().data.summary as string,
    categories: (info.json().data.categories as { slug: string }[]).map((c) => c.slug),
    backends: hosted?.backendOrigins,
    prices: Object.fromEntries((config.json().data.items as { sku: string; amount: number }[]).map((item) => [item.sku, item.amount])),
  };
}

/** A change of a live game waits for review (decision 112); players and orders see the live game until an operator approves. */
describe('changes of a live game (decision 112)', () => {
  let api: TestApi;
  let xsolla: XsollaStandIn;
  const players = testPlayers(() => api, 112);
  let owner: TestPlayer;
  let operator: TestPlayer;
  let operatorStudio: TestPlayer;
  let member: TestPlayer;
  let buyer: TestPlayer;
  let game: { id: number; slug: string };
  const orders = testOrders(() => api, { appId: () => game.id, firstTransaction: 112_000 });

  const save = (body: ReturnType<typeof form>, token = owner.token, target = game) => api.call('PUT', `/studio/games/${target.id}/`, { token, body });
  const queue = async (token = operator.token) =>
    (await api.call('GET', '/console/game-changes', { token })).json().data.changes as { id: number; appId: number }[];
  const pendingOf = async (target = game) => (await queue()).find((c) => c.appId === target.id);

  const before = { summary: 'Boats come home at night.', categories: ['puzzle'], backends: ['https://api.harbour.example'], prices: { 'fog-lamp': 199 } };

  beforeAll(async () => {
    ({ api, xsolla } = await openTestApiWithXsolla());
    [owner, operator, operatorStudio, member, buyer] = await Promise.all([
      players.newMember(),
      players.newMember(),
      players.newMember(),
      players.newMember(),
      players.newMember(),
    ]);
    for (const who of [owner, operatorStudio]) {
      const profile = await api.call('PUT', '/studio/profile/', { token: who.token, body: { studioName: 'Harbour Works', contactEmail: 'team@harbour.test' } });
      expect(profile.statusCode).toBe(200);
    }
    const now = new Date().toISOString();
    await api.database.db
      .insertInto('operators')
      .values([
        { user_id: operator.userInfo.uid, granted_at: now },
        { user_id: operatorStudio.userInfo.uid, granted_at: now },
      ])
      .execute();
    game = await liveGame(api, owner, operator, before.summary);
  });
  afterAll(() => closeTestApiWithXsolla({ api, xsolla }));

  it("keeps a live game's texts, categories, backends and prices as they are until an operator approves; rejection leaves them", async () => {
    expect(await served(api, game)).toEqual(before);
    const edited = await save(
      form({ summary: 'Now with a lighthouse.', price: 99_999, backend: 'https://api2.harbour.example', category: 'tools', extraItem: true }),
    );
    expect(edited.statusCode, edited.body).toBe(200);
    const studio = edited.json().data;
    // The Studio shows the saved form and that it waits for review, with what changed.
    expect(studio.i18n.en.summary).toBe('Now with a lighthouse.');
    expect(studio.review).toMatchObject({ status: 'pending', reason: null });
    expect(studio.review.changes.fields).toEqual(['i18n', 'categories', 'backends', 'items']);
    expect(studio.review.changes.items).toEqual([
      expect.objectContaining({
        sku: 'fog-lamp',
        what: ['price'],
        before: expect.objectContaining({ price: 199 }),
        after: expect.objectContaining({ price: 99_999 }),
      }),
      expect.objectContaining({ sku: 'gold-hull', what: ['new'], before: null }),
    ]);
    expect(studio.review.changes.before.backends).toEqual(['https://api.harbour.example']);
    expect(studio.review.changes.after.backends).toEqual(['https://api2.harbour.example']);

    // Players, the games origin and orders still get the live game.
    expect(await served(api, game)).toEqual(before);
    const made = await api.call('POST', `/game/pay/${game.id}`, { token: buyer.token, body: { sku: 'fog-lamp', idempotencyKey: idempotencyKey() } });
    expect(made.json().data.amount).toBe(199);
    expect(
      (await api.call('POST', `/game/pay/${game.id}`, { token: buyer.token, body: { sku: 'gold-hull', idempotencyKey: idempotencyKey() } })).statusCode,
    ).toBe(404);

    const change = await pendingOf();
    expect(change).toMatchObject({ slug: game.slug, changes: { fields: ['i18n', 'categories', 'backends', 'items'] } });
    const rejected = await api.call('POST', `/console/game-changes/${change!.id}/reject`, {
      token: operator.token,
      body: { reason: 'The new backend is not explained.' },
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(await served(api, game)).toEqual(before);
    const after = (await api.call('GET', `/studio/games/${game.id}/`, { token: owner.token })).json().data;
    expect(after.review).toMatchObject({ status: 'rejected', reason: 'The new backend is not explained.' });
    // The form shows the live game again.
    expect(after.i18n.en.summary).toBe(before.summary);
    expect(after.backends).toEqual(before.backends);
    expect(await pendingOf()).toBeUndefined();
    const audit = await api.database.db.selectFrom('audit_log').select(['action', 'operator_user_id']).where('target_id', '=', String(game.id)).execute();
    expect(audit).toEqual([{ action: 'game_change.reject', operator_user_id: operator.userInfo.uid }]);
  });

  it('lets the studio withdraw its change, and a form equal to the live game leaves nothing waiting', async () => {
    expect((await save(form({ summary: 'Withdraw me.', price: 199, backend: 'https://api.harbour.example' }))).json().data.review.status).toBe('pending');
    const withdrawn = await api.call('DELETE', `/studio/games/${game.id}/change`, { token: owner.token });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(withdrawn.json().data).toMatchObject({ review: null, i18n: { en: { summary: before.summary } } });
    expect((await api.call('DELETE', `/studio/games/${game.id}/change`, { token: owner.token })).statusCode).toBe(409);
    expect((await api.call('DELETE', `/studio/games/${game.id}/change`, { token: member.token })).statusCode).toBe(403);

    const unchanged = await save(form({ summary: before.summary, price: 199, backend: 'https://api.harbour.example' }));
    expect(unchanged.json().data.review).toBeNull();
    expect(await pendingOf()).toBeUndefined();
    expect(await served(api, game)).toEqual(before);
  });

  it('lets only an operator other than the developer review: members, the studio and an operator who owns the game are refused', async () => {
    await save(form({ summary: 'A change to approve.', price: 199, backend: 'https://api.harbour.example' }));
    const change = (await pendingOf())!;
    for (const [who, token, status] of [
      ['none', undefined, 401],
      ['member', member.token, 403],
      ['owner', owner.token, 403],
    ] as const) {
      expect((await api.call('GET', '/console/game-changes', { token })).statusCode, who).toBe(status);
      expect((await api.call('POST', `/console/game-changes/${change.id}/approve`, { token })).statusCode, who).toBe(status);
      expect((await api.call('POST', `/console/game-changes/${change.id}/reject`, { token, body: { reason: 'No.' } })).statusCode, who).toBe(status);
    }
    expect(await served(api, game)).toEqual(before);
    await api.call('DELETE', `/studio/games/${game.id}/change`, { token: owner.token });

    // An operator who also runs a studio cannot approve a change of their own game.
    const own = await liveGame(api, operatorStudio, operator, 'An operator’s own game.');
    await save(form({ summary: 'Approve it myself.', price: 5, backend: 'https://api.harbour.example' }), operatorStudio.token, own);
    const ownChange = (await pendingOf(own))!;
    const refused = await api.call('POST', `/console/game-changes/${ownChange.id}/approve`, { token: operatorStudio.token });
    expect(refused.statusCode, refused.body).toBe(403);
    expect((await served(api, own)).summary).toBe('An operator’s own game.');
    const approved = await api.call('POST', `/console/game-changes/${ownChange.id}/approve`, { token: operator.token });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await served(api, own)).toMatchObject({ summary: 'Approve it myself.', prices: { 'fog-lamp': 5 } });
    // Reviewed once: a second decision is refused.
    expect((await api.call('POST', `/console/game-changes/${ownChange.id}/reject`, { token: operator.token, body: { reason: 'Late.' } })).statusCode).toBe(409);
  });

  it('applies an approved change at once; an order made before a price change is paid at its old price, one after at the new; every price change is logged', async () => {
    const early = await orders.order(buyer, 'fog-lamp');
    await save(form({ summary: 'Now with a lighthouse.', price: 99_999, backend: 'https://api2.harbour.example', category: 'tools', extraItem: true }));
    const change = (await pendingOf())!;
    const approved = await api.call('POST', `/console/game-changes/${change.id}/approve`, { token: operator.token });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().data).toEqual({ id: change.id, appId: game.id, status: 'approved' });
    expect(await served(api, game)).toEqual({
      summary: 'Now with a lighthouse.',
      categories: ['tools'],
      backends: ['https://api2.harbour.example'],
      prices: { 'fog-lamp': 99_999, 'gold-hull': 299 },
    });
    expect((await api.call('GET', `/studio/games/${game.id}/`, { token: owner.token })).json().data.review).toMatchObject({ status: 'approved' });

    // The order made before keeps its price: its payment notified at the new price is refused, at its own price accepted.
    const paid = (amount: number, o: { id: string }, transaction: number) =>
      orders.notify({
        notification_type: 'payment',
        purchase: { total: { currency: 'USD', amount } },
        user: { id: String(buyer.userInfo.uid) },
        transaction: { id: transaction, external_id: o.id },
        custom_parameters: { order_id: o.id },
      });
    expect((await paid(999.99, early, orders.nextTransaction())).statusCode).toBe(400);
    expect((await paid(1.99, early, orders.nextTransaction())).statusCode).toBe(204);
    const earlyOrder = (await api.call('GET', `/game/orders/${early.id}`, { token: buyer.token })).json().data;
    expect(earlyOrder).toMatchObject({ status: 'paid', amount: 199, currency: 'USD' });
    const late = await orders.order(buyer, 'fog-lamp');
    expect((await api.call('GET', `/game/orders/${late.id}`, { token: buyer.token })).json().data.amount).toBe(99_999);
    expect((await paid(1.99, late, orders.nextTransaction())).statusCode).toBe(400);
    expect((await paid(999.99, late, orders.nextTransaction())).statusCode).toBe(204);

    // The audit log has the approval and each price it set; the studio sees its own price history.
    const audit = await api.database.db
      .selectFrom('audit_log')
      .select(['action', 'operator_user_id', 'detail'])
      .where('target_type', '=', 'game')
      .where('target_id', '=', String(game.id))
      .where('action', 'in', ['game_change.approve', 'item.price_change'])
      .orderBy('id')
      .execute();
    expect(audit.map((entry) => ({ ...entry, detail: JSON.parse(entry.detail) as unknown }))).toEqual([
      {
        action: 'game_change.approve',
        operator_user_id: operator.userInfo.uid,
        detail: { changeId: change.id, submittedBy: owner.userInfo.uid, fields: ['i18n', 'categories', 'backends', 'items'] },
      },
      {
        action: 'item.price_change',
        operator_user_id: operator.userInfo.uid,
        detail: {
          changeId: change.id,
          sku: 'fog-lamp',
          from: { price: 199, currency: 'USD' },
          to: { price: 99_999, currency: 'USD' },
          requestedBy: owner.userInfo.uid,
        },
      },
      {
        action: 'item.price_change',
        operator_user_id: operator.userInfo.uid,
        detail: { changeId: change.id, sku: 'gold-hull', from: null, to: { price: 299, currency: 'USD' }, requestedBy: owner.userInfo.uid },
      },
    ]);
    const history = await api.call('GET', `/studio/games/${game.id}/prices`, { token: owner.token });
    expect(history.json().data.changes).toEqual([
      expect.objectContaining({ sku: 'gold-hull', oldPrice: null, newPrice: 299, currency: 'USD' }),
      expect.objectContaining({ sku: 'fog-lamp', oldPrice: 199, newPrice: 99_999, currency: 'USD' }),
    ]);
    expect((await api.call('GET', `/studio/games/${game.id}/prices`, { token: member.token })).statusCode).toBe(403);
    // An operator sees them in the Console's audit log, filtered by the game.
    const page = await api.call('GET', `/console/audit/?target_type=game&target_id=${game.id}`, { token: operator.token });
    expect(page.statusCode, page.body).toBe(200);
    expect((page.json().data.entries as { action: string }[]).filter((e) => e.action === 'item.price_change')).toHaveLength(2);
  });

  it('never loses or mixes changes when an approval and a new save of the game meet', async () => {
    const target = await liveGame(api, owner, operator, 'version 0');
    for (let round = 1; round <= 6; round += 1) {
      const proposed = 2 * round - 1;
      const next = 2 * round;
      const { summary: liveBefore } = await served(api, target);
      await save(snapshot(proposed), owner.token, target);
      const change = (await pendingOf(target))!;
      const [approval, saved] = await Promise.all([
        api.call('POST', `/console/game-changes/${change.id}/approve`, { token: operator.token }),
        save(snapshot(next), owner.token, target),
      ]);
      expect(saved.statusCode, saved.body).toBe(200);
      expect([200, 409], approval.body).toContain(approval.statusCode);
      // The live game is one whole saved form: the approved one, or the one before when the new save came first.
      const live = await served(api, target);
      const n = approval.statusCode === 200 ? proposed : Number(liveBefore.split(' ')[1]);
      expect(live).toEqual({ summary: `version ${n}`, categories: ['puzzle'], backends: [`https://v${n}.harbour.example`], prices: { 'fog-lamp': 100 + n } });
      // The new save waits whole, once.
      const waiting = (await queue()).filter((c) => c.appId === target.id);
      expect(waiting).toHaveLength(1);
      const studio = (await api.call('GET', `/studio/games/${target.id}/`, { token: owner.token })).json().data;
      expect(studio.review.status).toBe('pending');
      expect(studio.i18n.en.summary).toBe(`version ${next}`);
      expect(studio.items[0].price).toBe(100 + next);
      expect((await api.call('POST', `/console/game-changes/${waiting[0]!.id}/approve`, { token: operator.token })).statusCode).toBe(200);
      expect(await served(api, target)).toEqual({
        summary: `version ${next}`,
        categories: ['puzzle'],
        backends: [`https://v${next}.harbour.example`],
        prices: { 'fog-lamp': 100 + next },
      });
    }
  });

  it('keeps one whole change waiting when two saves of the game arrive at once', async () => {
    const target = await liveGame(api, owner, operator, 'version 0');
    for (let round = 1; round <= 4; round += 1) {
      const answers = await Promise.all([save(snapshot(10 * round + 1), owner.token, target), save(snapshot(10 * round + 2), owner.token, target)]);
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
      const waiting = (await queue()).filter((c) => c.appId === target.id);
      expect(waiting).toHaveLength(1);
      const studio = (await api.call('GET', `/studio/games/${target.id}/`, { token: owner.token })).json().data;
      const n = Number(String(studio.i18n.en.summary).split(' ')[1]);
      expect([10 * round + 1, 10 * round + 2]).toContain(n);
      expect({ price: studio.items[0].price, backends: studio.backends }).toEqual({ price: 100 + n, backends: [`https://v${n}.harbour.example`] });
    }
  });
});

/** The built-in sandbox's checkout charges the order's amount, never the item's price of the moment. */
describe('a price change and the sandbox checkout (decision 112)', () => {
  let api: TestApi;
  const players = testPlayers(() => api, 113);

  beforeAll(async () => {
    const port = await freePort();
    api = await openTestApi({ PAYMENT_WEBHOOK_URL: `http://127.0.0.1:${port}/serve/api/payment/xsolla/webhook/` });
    await api.app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(() => api?.close());

  it('pays an order made before the approval at its old amount, and one made after at the new', async () => {
    const [owner, operator, buyer] = [await players.newMember(), await players.newMember(), await players.newMember()];
    const profile = await api.call('PUT', '/studio/profile/', { token: owner.token, body: { studioName: 'Harbour Works', contactEmail: 'team@harbour.test' } });
    expect(profile.statusCode).toBe(200);
    await api.database.db.insertInto('operators').values({ user_id: operator.userInfo.uid, granted_at: new Date().toISOString() }).execute();
    const game = await liveGame(api, owner, operator, 'Boats come home at night.');

    const newOrder = async () => {
      const made = await api.call('POST', `/game/pay/${game.id}`, { token: buyer.token, body: { sku: 'fog-lamp', idempotencyKey: idempotencyKey() } });
      expect(made.statusCode, made.body).toBe(201);
      return made.json().data.id as string;
    };
    /** Opens the order's checkout and pays it with the test card: what the checkout showed, and the order after. */
    const checkoutAndPay = async (orderId: string) => {
      const opened = await api.call('POST', '/payment/xsolla/create/', { token: buyer.token, body: { order_id: orderId } });
      expect(opened.statusCode, opened.body).toBe(200);
      const token = opened.json().data.token as string;
      const shown = (await api.call('GET', `/payment/sandbox/checkout/${token}`)).json().data as { amount: number };
      const outcome = (await api.call('POST', '/payment/sandbox/pay/', { body: { token, card: '4242 4242 4242 4242' } })).json().data.outcome;
      expect(outcome).toBe('paid');
      const order = (await api.call('GET', `/game/orders/${orderId}`, { token: buyer.token })).json().data as { status: string; amount: number };
      return { shown: shown.amount, status: order.status, amount: order.amount };
    };

    const early = await newOrder();
    await api.call('PUT', `/studio/games/${game.id}/`, {
      token: owner.token,
      body: form({ summary: 'Dearer lamps.', price: 250, backend: 'https://api.harbour.example' }),
    });
    const change = (await api.call('GET', '/console/game-changes', { token: operator.token })).json().data.changes[0] as { id: number };
    expect((await api.call('POST', `/console/game-changes/${change.id}/approve`, { token: operator.token })).statusCode).toBe(200);
    expect((await served(api, game)).prices).toEqual({ 'fog-lamp': 250 });

    expect(await checkoutAndPay(early)).toEqual({ shown: 199, status: 'paid', amount: 199 });
    expect(await checkoutAndPay(await newOrder())).toEqual({ shown: 250, status: 'paid', amount: 250 });
  });
});
