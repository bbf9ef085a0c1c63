import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#server/testing/clocks.ts';
import { appIdOf, openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { testPlayers } from '#server/testing/test-players.ts';
import { ERASURE_RULES, PERSONAL_DATA_COLUMNS } from '../member-data/personal-data-columns.ts';

const DAY = 24 * 60 * 60 * 1000;
const PASSWORD = 'Harbour-Lantern-Tricky-9';

/** Account deletion (decision 147) through the API and the hourly clean-up, on a clock the test moves. */
describe('account deletion', () => {
  let api: TestApi;
  const clock = new ManualClock('2026-11-20T09:00:00.000Z');
  const { newGuest, newMember } = testPlayers(() => api, 147);
  const db = () => api.database.db;

  beforeAll(async () => {
    api = await openTestApi({}, { clock });
  });
  afterAll(() => api?.close());

  const usernameOf = async (uid: number) => (await db().selectFrom('users').select('username').where('id', '=', uid).executeTakeFirstOrThrow()).username!;
  const askToDelete = (token: string, currentPassword?: string) =>
    api.call('POST', '/user/account-deletion/', { token, body: currentPassword === undefined ? {} : { currentPassword } });

  it('closes the account after the password: every session ends and its scores leave the boards', async () => {
    const member = await newMember();
    const alpha = await appIdOf(api.database, 'alpha');
    expect((await api.call('POST', `/game/leaderboards/${alpha}/points/scores`, { token: member.token, body: { score: 90210 } })).statusCode).toBeLessThan(300);
    const board = async () =>
      JSON.stringify((await api.call('GET', `/game/leaderboards/${alpha}/points?limit=50`, { token: (await newGuest()).token })).json());
    expect(await board()).toContain('90210');

    const status = await api.call('GET', '/user/account-deletion/', { token: member.token });
    expect(status.json().data).toEqual({ graceDays: 30, liveGames: 0, hasPassword: true, restoredAt: null });
    expect((await askToDelete(member.token)).statusCode).toBe(422);
    expect((await askToDelete(member.token, 'not-the-password')).statusCode).toBe(422);
    expect((await askToDelete(member.token, 'nul\u0000inside')).statusCode).toBe(422);
    const asked = await askToDelete(member.token, PASSWORD);
    expect(asked.statusCode).toBe(200);
    expect(asked.json().data).toEqual({ requestedAt: clock.now().toISOString(), erasedAfter: new Date(clock.time + 30 * DAY).toISOString() });

    expect((await api.call('GET', '/user/account-deletion/', { token: member.token })).statusCode).toBe(401);
    expect(await db().selectFrom('access_tokens').select('id').where('user_id', '=', member.userInfo.uid).execute()).toEqual([]);
    expect(await board()).not.toContain('90210');
    const audit = await db().selectFrom('audit_log').selectAll().where('target_id', '=', String(member.userInfo.uid)).execute();
    expect(audit).toEqual([expect.objectContaining({ action: 'member.deletion_requested', operator_user_id: member.userInfo.uid, target_type: 'member' })]);
  });

  it('is refused to a guest, who has the guest clean-up', async () => {
    const guest = await newGuest();
    expect((await askToDelete(guest.token)).statusCode).toBe(403);
    expect(
      (await db().selectFrom('users').select('deletion_requested_at').where('id', '=', guest.userInfo.uid).executeTakeFirstOrThrow()).deletion_requested_at,
    ).toBeNull();
  });

  it('is undone by a sign-in within the 30 days, which the account is told of', async () => {
    const member = await newMember();
    const username = await usernameOf(member.userInfo.uid);
    expect((await askToDelete(member.token, PASSWORD)).statusCode).toBe(200);
    clock.advance(29 * DAY);
    const signIn = await api.call('POST', '/username/login/', { body: { username, password: PASSWORD } });
    expect(signIn.statusCode).toBe(200);
    const token = signIn.json().data.token as string;
    const status = await api.call('GET', '/user/account-deletion/', { token });
    expect(status.json().data.restoredAt).toBe(clock.now().toISOString());
    clock.advance(2 * DAY);
    await api.services.accountDeletion.eraseDue();
    expect((await db().selectFrom('users').select(['erased_at', 'username']).where('id', '=', member.userInfo.uid).executeTakeFirstOrThrow()).username).toBe(
      username,
    );
    expect((await api.call('GET', '/user/account-deletion/', { token })).json().data.restoredAt).toBeNull();
  });

  it('erases, 30 days later, everything personal in every table, as personal-data-columns.ts rules, and tells the games that knew the player', async () => {
    const member = await newMember();
    const uid = member.userInfo.uid;
    const mark = `zq${randomBytes(5).toString('hex')}`;
    const email = `${mark}@example.test`;
    const phone = `+86${Date.now() % 1e10}`.padEnd(14, '7');
    const now = clock.now().toISOString();
    const alpha = await appIdOf(api.database, 'alpha');
    const beta = await appIdOf(api.database, 'beta');
    const other = await newMember();
    await db()
      .updateTable('users')
      .set({
        nickname: `Nick ${mark}`,
        email,
        phone,
        avatar: `/uploads/avatars/${mark}.webp`,
        campaign: `{"utm_source":"${mark}"}`,
        last_network: `${mark}/24`,
        email_verified_at: now,
        mail_locale: 'zh-CN',
      })
      .where('id', '=', uid)
      .execute();
    // Alpha's backend knew the player; beta has a webhook too, but never saw them.
    await db()
      .insertInto('game_webhooks')
      .values([
        { app_id: alpha, url: 'https://alpha.example.test/hook', secret_generation: 0, created_at: now, updated_at: now },
        { app_id: beta, url: 'https://beta.example.test/hook', secret_generation: 0, created_at: now, updated_at: now },
      ])
      .onConflict((oc) => oc.column('app_id').doUpdateSet({ url: (eb) => eb.ref('excluded.url') }))
      .execute();
    const item = (
      await db()
        .insertInto('app_items')
        .values({
          app_id: alpha,
          sku: `erase-${uid}`,
          price_minor: 100,
          currency: 'USD',
          names: '{}',
          kind: 'consumable',
          active: 1,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const order = (
      await db()
        .insertInto('orders')
        .values({
          public_id: `ord_erase_${uid}`,
          user_id: uid,
          app_id: alpha,
          item_id: item,
          sku: `erase-${uid}`,
          amount_minor: 100,
          currency: 'USD',
          status: 'paid',
          provider: 'sandbox',
          provider_order_id: null,
          provider_transaction_id: null,
          idempotency_key: `key-${uid}`,
          campaign: `{"utm_source":"${mark}"}`,
          created_at: now,
          updated_at: now,
          paid_at: now,
          delivered_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const rows: Record<string, () => Promise<unknown>> = {
      access_tokens: async () => undefined, // the member's session
      email_verifications: () =>
        db()
          .insertInto('email_verifications')
          .values({ user_id: uid, email, code_hash: `c-${mark}`, attempts: 0, expires_at: now, created_at: now })
          .execute(),
      password_resets: () =>
        db()
          .insertInto('password_resets')
          .values({ token_hash: `t-${mark}`, user_id: uid, purpose: 'not-me', expires_at: now, used_at: null, created_at: now })
          .execute(),
      sign_in_devices: () =>
        db()
          .insertInto('sign_in_devices')
          .values({ user_id: uid, device_hash: `d-${mark}`, label: `Browser ${mark}`, first_at: now, last_at: now })
          .execute(),
      sign_in_failures: () =>
        db().insertInto('sign_in_failures').values({ user_id: uid, identifier: email, method: 'password', address: '203.0.113.7', created_at: now }).execute(),
      social_accounts: () =>
        db()
          .insertInto('social_accounts')
          .values({ user_id: uid, platform: 'google', provider_user_id: `g-${mark}`, display_name: `Name ${mark}`, email, created_at: now })
          .execute(),
      webauthn_credentials: () =>
        db()
          .insertInto('webauthn_credentials')
          .values({
            user_id: uid,
            credential_id: `cred-${mark}`,
            public_key: 'key',
            counter: 0,
            transports: null,
            device_type: 'multiDevice',
            backed_up: 1,
            name: `Phone ${mark}`,
            aaguid: null,
            created_at: now,
            last_used_at: null,
          })
          .execute(),
      auth_challenges: () =>
        db()
          .insertInto('auth_challenges')
          .values({ id: `ch-${mark}`, purpose: 'registration', challenge: `c-${mark}`, user_id: uid, payload: null, expires_at: now, created_at: now })
          .execute(),
      social_challenges: async () => undefined, // tied to no account: expires (rule `expire`)
      data_exports: () =>
        db()
          .insertInto('data_exports')
          .values({ id: `exp${mark}`, user_id: uid, requested_by: null, status: 'pending', created_at: now })
          .execute(),
      apps: () => db().updateTable('apps').set({ developer_user_id: uid }).where('id', '=', beta).execute(),
      played_games: () =>
        db().insertInto('played_games').values({ user_id: uid, app_id: alpha, play_count: 3, first_played_at: now, last_played_at: now }).execute(),
      favourites: () => db().insertInto('favourites').values({ user_id: uid, app_id: alpha, created_at: now }).execute(),
      game_saves: () =>
        db()
          .insertInto('game_saves')
          .values({ user_id: uid, app_id: alpha, key: 'progress', value: `"${mark}"`, size: 20, updated_at: now })
          .execute(),
      game_save_totals: () => db().insertInto('game_save_totals').values({ user_id: uid, app_id: alpha, total: 20 }).execute(),
      leaderboard_scores: () =>
        db()
          .insertInto('leaderboard_scores')
          .values({ app_id: alpha, board: 'points', period: 'all-time', user_id: uid, score: 31337, achieved_at: now })
          .execute(),
      achievement_unlocks: () =>
        db().insertInto('achievement_unlocks').values({ app_id: alpha, achievement: 'first', user_id: uid, unlocked_at: now }).execute(),
      orders: async () => undefined, // above
      order_events: () =>
        db()
          .insertInto('order_events')
          .values({
            order_id: order,
            type: 'notification',
            event_key: `ev-${uid}`,
            from_status: 'pending',
            to_status: 'paid',
            payload: `{"email":"${email}"}`,
            created_at: now,
          })
          .execute(),
      inventory: () => db().insertInto('inventory').values({ user_id: uid, item_id: item, app_id: alpha, quantity: 2, updated_at: now }).execute(),
      item_consumptions: () =>
        db()
          .insertInto('item_consumptions')
          .values({ user_id: uid, item_id: item, idempotency_key: `use-${mark}`, quantity: 1, remaining: 2, created_at: now })
          .execute(),
      // Its triggers fill game_stats_day_players and game_stats_players.
      game_sessions: () =>
        db()
          .insertInto('game_sessions')
          .values({
            session_key: `s-erase-${uid}`,
            app_id: alpha,
            user_id: uid,
            day: now.slice(0, 10),
            loading_ms: 10,
            to_gameplay_ms: 20,
            play_ms: 1000,
            reports: 1,
            created_at: now,
            updated_at: now,
          })
          .execute(),
      game_stats_day_players: async () => undefined,
      game_stats_players: async () => undefined,
      operators: () => db().insertInto('operators').values({ user_id: uid, granted_at: now }).execute(),
      audit_log: () =>
        db()
          .insertInto('audit_log')
          .values({
            operator_user_id: other.userInfo.uid,
            action: 'member.disable',
            target_type: 'member',
            target_id: String(uid),
            detail: '{"reason":"test"}',
            created_at: now,
          })
          .execute(),
      developer_profiles: () =>
        db()
          .insertInto('developer_profiles')
          .values({ user_id: uid, studio_name: `Studio ${mark}`, contact_email: email, created_at: now, updated_at: now })
          .execute(),
      revenue_terms: () =>
        db()
          .insertInto('revenue_terms')
          .values({ studio_user_id: uid, share_bp: 8000, starts_at: now, reason: 'test', set_by_user_id: null, created_at: now })
          .execute(),
      ledger_entries: async () => {
        const entry = await db()
          .insertInto('ledger_entries')
          .values({
            source_key: `correction:${uid}`,
            kind: 'correction',
            currency: 'USD',
            studio_user_id: uid,
            gross_minor: 0,
            deductions_minor: 0,
            platform_minor: -100,
            studio_minor: 100,
            note: 'test',
            posted_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        // The lines go with their entry (ledger_lines has a rule of its own, below).
        await db()
          .insertInto('ledger_lines')
          .values([
            { entry_id: entry.id, account: 'studio', studio_user_id: uid, currency: 'USD', amount_minor: 100, posted_at: now, available_at: now },
            { entry_id: entry.id, account: 'platform', studio_user_id: null, currency: 'USD', amount_minor: -100, posted_at: now, available_at: now },
          ])
          .execute();
      },
      ledger_lines: async () => undefined, // written with ledger_entries above
      earnings_statements: () =>
        db()
          .insertInto('earnings_statements')
          .values({
            studio_user_id: uid,
            currency: 'USD',
            month: '2026-01',
            opening_minor: 0,
            earned_minor: 0,
            refunded_minor: 0,
            corrections_minor: 0,
            payouts_minor: 0,
            closing_minor: 0,
            closed_at: now,
          })
          .execute(),
      payout_accounts: () =>
        db()
          .insertInto('payout_accounts')
          .values({
            studio_user_id: uid,
            method: 'paypal',
            receiver: email,
            legal_name: `Studio ${mark} Ltd`,
            country: 'GB',
            tax_id_sealed: 'sealed',
            updated_at: now,
          })
          .execute(),
      payouts: () =>
        db()
          .insertInto('payouts')
          .values({
            public_id: `po_${uid}`,
            studio_user_id: uid,
            currency: 'USD',
            amount_minor: 100,
            status: 'paid',
            method: 'paypal',
            month: '2026-01',
            proposed_at: now,
            updated_at: now,
          })
          .execute(),
      studio_keys: () =>
        db()
          .insertInto('studio_keys')
          .values({ user_id: uid, name: `Key ${mark}`, key_hash: `h-${mark}`, created_at: now, last_used_at: null })
          .execute(),
      game_builds: () =>
        db()
          .insertInto('game_builds')
          .values({
            app_id: beta,
            version: 1,
            status: 'uploaded',
            reason: null,
            uploaded_by: uid,
            reviewed_by: null,
            entry_path: 'index.html',
            file_count: 1,
            total_bytes: 1,
            archive_bytes: 1,
            created_at: now,
          })
          .execute(),
      build_uploads: () =>
        db()
          .insertInto('build_uploads')
          .values({ id: `up${mark}`, user_id: uid, app_id: beta, bytes: 1, created_at: now, touched_at: now })
          .execute(),
      build_upload_quotas: () =>
        db()
          .insertInto('build_upload_quotas')
          .values({ user_id: uid, day: now.slice(0, 10), day_bytes: 1 })
          .execute(),
      game_changes: () =>
        db()
          .insertInto('game_changes')
          .values({
            app_id: beta,
            status: 'pending',
            metadata: '{}',
            changes: '{}',
            submitted_by: uid,
            created_at: now,
            reviewed_by: null,
            reviewed_at: null,
            reason: null,
          })
          .execute(),
      webhook_deliveries: async () => undefined, // the erasure queues player.deleted
      two_factor_secrets: () =>
        db()
          .insertInto('two_factor_secrets')
          .values({ user_id: uid, secret_sealed: `sealed-${mark}`, confirmed_at: now, last_step: null, created_at: now })
          .execute(),
      two_factor_recovery_codes: () =>
        db()
          .insertInto('two_factor_recovery_codes')
          .values({ id: `rc${mark}`, user_id: uid, code_hash: `h-${mark}`, used_at: null, created_at: now })
          .execute(),
      mail_outbox: () =>
        db()
          .insertInto('mail_outbox')
          .values({
            recipient: email,
            locale: 'en',
            template: 'sign-in-code',
            params: `{"code":"${mark}"}`,
            status: 'sent',
            attempts: 1,
            next_attempt_at: now,
            claimed_until: now,
            last_error: null,
            created_at: now,
            sent_at: now,
          })
          .execute(),
      rate_limits: async () => undefined, // keyed by address or id, gone when its window ends (rule `expire`)
      users: async () => undefined, // above
    };
    // A table with personal data and no row here fails: the test grows with the rules.
    expect(Object.keys(rows).sort()).toEqual(Object.keys(PERSONAL_DATA_COLUMNS).sort());
    for (const insert of Object.values(rows)) await insert();
    // The developer of a published game is told on the delete page what becomes of it.
    expect((await api.call('GET', '/user/account-deletion/', { token: member.token })).json().data.liveGames).toBe(1);

    const ownRows = async (table: string, by: string, value: string | number) =>
      // oxlint-disable-next-line typescript/no-explicit-any -- a table named by the rules, read generically
      (await (db() as any).selectFrom(table).selectAll().where(by, '=', value).execute()) as Array<Record<string, unknown>>;
    const byValue = (by: string) => (by === 'recipient' ? email : uid);
    for (const [table, rule] of Object.entries(ERASURE_RULES)) {
      if (rule.by) expect(await ownRows(table, rule.by, byValue(rule.by)), `${table} holds the member's rows before the erasure`).not.toEqual([]);
    }

    expect((await askToDelete(member.token, PASSWORD)).statusCode).toBe(200);
    clock.advance(30 * DAY + 1000);
    const erasedAt = clock.now().toISOString();
    // Only this member's account waits past its 30 days (the first test's was erased by the third).
    expect(await api.services.accountDeletion.eraseDue()).toBe(1);
    expect(await api.services.accountDeletion.eraseDue()).toBe(0);

    for (const [table, rule] of Object.entries(ERASURE_RULES)) {
      if (!rule.by) continue;
      const left = await ownRows(table, rule.by, byValue(rule.by));
      if (rule.rows === 'deleted') expect(left, `${table}: the member's rows are deleted`).toEqual([]);
      if (rule.rows !== 'kept') continue;
      expect(left.length, `${table}: the member's rows are kept`).toBeGreaterThan(0);
      for (const row of left)
        for (const [column, erasure] of Object.entries(rule.columns ?? {})) {
          if (erasure === 'emptied') expect(row[column], `${table}.${column} is emptied`).toBeNull();
          if (erasure === 'anonymised') expect(String(row[column]), `${table}.${column} is anonymised`).not.toContain(mark);
        }
    }
    // Nothing of the member is left anywhere in a table with personal data: no mark, address or number.
    for (const table of Object.keys(PERSONAL_DATA_COLUMNS)) {
      // oxlint-disable-next-line typescript/no-explicit-any -- every table with personal data, read whole
      const text = JSON.stringify(await (db() as any).selectFrom(table).selectAll().execute());
      expect(text, `${table} still names the member`).not.toContain(mark);
      expect(text, `${table} still holds the member's number`).not.toContain(phone);
    }
    const user = await db().selectFrom('users').selectAll().where('id', '=', uid).executeTakeFirstOrThrow();
    expect(user.nickname).toMatch(/^player-[0-9a-f]{6}$/);
    expect(user.erased_at).toBe(erasedAt);
    expect((await db().selectFrom('orders').select(['amount_minor', 'status']).where('id', '=', order).executeTakeFirstOrThrow()).amount_minor).toBe(100);

    // Alpha's backend knew the player: one signed player.deleted; beta's never did.
    const deliveries = await db().selectFrom('webhook_deliveries').selectAll().where('event_type', '=', 'player.deleted').execute();
    expect(deliveries.map((d) => d.app_id)).toEqual([alpha]);
    expect(JSON.parse(deliveries[0]!.payload)).toMatchObject({ type: 'player.deleted', livemode: true, game: { id: alpha }, data: { player: uid } });
    // The kept score is back on the board, under the anonymous name.
    const board = JSON.stringify((await api.call('GET', `/game/leaderboards/${alpha}/points?limit=50`, { token: other.token })).json());
    expect(board).toContain(user.nickname!);
    const audit = await db().selectFrom('audit_log').select('action').where('target_id', '=', String(uid)).orderBy('id').execute();
    expect(audit.map((entry) => entry.action)).toEqual(['member.disable', 'member.deletion_requested', 'member.erased']);
  });

  it("shows operators the accounts waiting to be erased, and lets one restore an account on its member's request, all in the audit log", async () => {
    const operator = await newMember();
    expect(await api.services.operators.grant(String(operator.userInfo.uid))).toBe(operator.userInfo.uid);
    const member = await newMember();
    const uid = member.userInfo.uid;
    const overview = async () => (await api.call('GET', '/console/overview/', { token: operator.token })).json().data.deletionsPending as number;
    const before = await overview();
    expect((await askToDelete(member.token, PASSWORD)).statusCode).toBe(200);
    expect(await overview()).toBe(before + 1);
    const detail = (await api.call('GET', `/console/members/${uid}`, { token: operator.token })).json().data;
    expect(detail.member).toMatchObject({ deletionRequestedAt: clock.now().toISOString(), erasedAt: null });
    expect(detail.signIn.sessions).toBe(0);

    const restored = await api.call('POST', `/console/members/${uid}/cancel-deletion`, { token: operator.token, body: { reason: 'Asked by mail to keep it' } });
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data.member.deletionRequestedAt).toBeNull();
    expect(await overview()).toBe(before);
    const audit = (await api.call('GET', `/console/audit/?target_type=member&target_id=${uid}`, { token: operator.token })).json().data.entries;
    expect(audit.map((entry: { action: string }) => entry.action)).toEqual(['member.deletion_cancelled', 'member.deletion_requested']);
    clock.advance(31 * DAY);
    await api.services.accountDeletion.eraseDue();
    expect((await db().selectFrom('users').select('erased_at').where('id', '=', uid).executeTakeFirstOrThrow()).erased_at).toBeNull();
  });

  it("lets an operator erase a closed account at once, on its member's request, and nothing else", async () => {
    const operator = await newMember();
    await api.services.operators.grant(String(operator.userInfo.uid));
    const member = await newMember();
    const uid = member.userInfo.uid;
    // Not closed: refused, and so is a member who is no operator.
    const open = await api.call('POST', `/console/members/${uid}/erase`, { token: operator.token, body: { reason: 'Asked by mail' } });
    expect(open.statusCode).toBe(409);
    expect((await askToDelete(member.token, PASSWORD)).statusCode).toBe(200);
    const other = await newMember();
    expect((await api.call('POST', `/console/members/${uid}/erase`, { token: other.token, body: { reason: 'x' } })).statusCode).toBe(403);

    const erased = await api.call('POST', `/console/members/${uid}/erase`, { token: operator.token, body: { reason: 'Asked by mail to erase it now' } });
    expect(erased.statusCode).toBe(200);
    expect(erased.json().data.member).toMatchObject({ deletionRequestedAt: null, username: null, email: null });
    expect(erased.json().data.member.erasedAt).not.toBeNull();
    expect(erased.json().data.member.nickname).toMatch(/^player-[0-9a-f]{6}$/);
    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'operator_user_id', 'detail'])
      .where('target_id', '=', String(uid))
      .orderBy('id')
      .execute();
    expect(audit.map((entry) => entry.action)).toEqual(['member.deletion_requested', 'member.erased']);
    expect(audit[1]).toMatchObject({ operator_user_id: operator.userInfo.uid });
    expect(audit[1]!.detail).toContain('Asked by mail to erase it now');
    // Erased once: a second press changes nothing.
    expect((await api.call('POST', `/console/members/${uid}/erase`, { token: operator.token, body: { reason: 'again' } })).statusCode).toBe(409);
  });
});
