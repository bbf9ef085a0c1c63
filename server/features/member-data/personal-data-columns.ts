/**
 * What becomes of each column of every table holding personal data (docs/architecture.md, "Tables
 * and their owners", personal data "yes"), so that the archive (decision 144) and, next, the
 * erasure of an account (decision 147, `ERASURE_RULES` below) have a rule for each one. `personal-data-columns.db.test.ts` fails when the
 * migrated schema has a column, or a table with personal data, without a rule here.
 * - `archive`: in the member's "Download my data" archive.
 * - `secret`: never leaves the server (hashes, keys, codes); never in an archive.
 * - `internal`: bookkeeping (ids, leases, counters, caches) that says nothing the archive does not.
 * - `not-archived`: about the member but kept out of the archive, for the reason given on its table.
 */
export type ColumnRule = 'archive' | 'secret' | 'internal' | 'not-archived';

export interface TableRule {
  columns: Record<string, ColumnRule>;
  /** Why `not-archived` columns stay out, where a table has any. */
  why?: string;
}

const rules = <const T extends Record<string, ColumnRule>>(columns: T, why?: string): TableRule => ({ columns, ...(why ? { why } : {}) });

/** Why a studio's money stays out of the member's archive (decision 149). */
const STUDIO_MONEY =
  "a studio's money is shown on the Studio's Earnings page, its statements downloadable as CSV; the archive holds what the member did as a player";

export const PERSONAL_DATA_COLUMNS: Record<string, TableRule> = {
  users: rules(
    {
      id: 'archive',
      nickname: 'archive',
      avatar: 'archive',
      username: 'archive',
      username_normalized: 'internal',
      password_hash: 'secret',
      email: 'archive',
      phone: 'archive',
      fingerprint_hash: 'secret',
      fingerprint_at: 'not-archived',
      device_id_hash: 'secret',
      last_network: 'not-archived',
      last_seen_at: 'archive',
      webauthn_user_id: 'secret',
      campaign: 'archive',
      is_guest: 'archive',
      created_at: 'archive',
      updated_at: 'archive',
      disabled_at: 'not-archived',
      first_app_id: 'internal',
      first_played_at: 'archive',
      email_verified_at: 'archive',
      mail_locale: 'archive',
      deletion_requested_at: 'not-archived',
      deletion_restored_at: 'not-archived',
      erased_at: 'internal',
    },
    'the device sign-in is shown as has_device_sign_in; the network (a /24 or /48 prefix) only matches a device; a disabled account cannot sign in to ask; a closed account cannot either, and a restored one is told on its pages',
  ),
  email_verifications: rules({
    user_id: 'internal',
    email: 'archive',
    code_hash: 'secret',
    attempts: 'archive',
    expires_at: 'archive',
    created_at: 'archive',
  }),
  password_resets: rules({ token_hash: 'secret', user_id: 'internal', purpose: 'archive', expires_at: 'archive', used_at: 'archive', created_at: 'archive' }),
  sign_in_devices: rules(
    { user_id: 'internal', device_hash: 'not-archived', label: 'archive', first_at: 'archive', last_at: 'archive' },
    'the device hash is keyed with APP_SECRET and says nothing the label and dates do not',
  ),
  access_tokens: rules({
    id: 'internal',
    user_id: 'internal',
    token_hash: 'secret',
    name: 'archive',
    last_used_at: 'archive',
    expires_at: 'archive',
    created_at: 'archive',
  }),
  sign_in_failures: rules({ id: 'internal', user_id: 'internal', identifier: 'archive', method: 'archive', address: 'archive', created_at: 'archive' }),
  social_accounts: rules({
    id: 'internal',
    user_id: 'internal',
    platform: 'archive',
    provider_user_id: 'archive',
    display_name: 'archive',
    email: 'archive',
    created_at: 'archive',
  }),
  webauthn_credentials: rules(
    {
      id: 'internal',
      user_id: 'internal',
      credential_id: 'secret',
      public_key: 'secret',
      counter: 'internal',
      transports: 'archive',
      device_type: 'archive',
      backed_up: 'archive',
      name: 'archive',
      aaguid: 'not-archived',
      created_at: 'archive',
      last_used_at: 'archive',
    },
    "the authenticator's model id says nothing the name and device type do not",
  ),
  auth_challenges: rules({
    id: 'internal',
    purpose: 'internal',
    challenge: 'secret',
    user_id: 'internal',
    payload: 'secret',
    attempts: 'internal',
    expires_at: 'internal',
    created_at: 'internal',
  }),
  social_challenges: rules({
    id: 'internal',
    purpose: 'internal',
    challenge: 'secret',
    payload: 'secret',
    attempts: 'internal',
    expires_at: 'internal',
    created_at: 'internal',
  }),
  data_exports: rules(
    {
      id: 'internal',
      user_id: 'internal',
      requested_by: 'not-archived',
      status: 'not-archived',
      storage_key: 'internal',
      size_bytes: 'not-archived',
      attempts: 'internal',
      error: 'internal',
      claimed_until: 'internal',
      created_at: 'not-archived',
      ready_at: 'not-archived',
      expires_at: 'not-archived',
    },
    'the requests are listed on the page that makes the archive',
  ),
  apps: rules(
    {
      id: 'archive',
      slug: 'archive',
      type: 'not-archived',
      entry_url: 'not-archived',
      thumbnail: 'not-archived',
      cover: 'not-archived',
      screenshots: 'not-archived',
      backend_origins: 'not-archived',
      leaderboards: 'not-archived',
      achievements: 'not-archived',
      orientation: 'not-archived',
      width: 'not-archived',
      height: 'not-archived',
      developer: 'not-archived',
      featured: 'not-archived',
      play_count: 'not-archived',
      released_at: 'not-archived',
      published: 'not-archived',
      developer_user_id: 'internal',
      live_build_id: 'not-archived',
      listing_source: 'not-archived',
      created_at: 'archive',
      updated_at: 'not-archived',
    },
    "a developer's games are public listings: the archive names them (id, address, created); the Studio shows the rest",
  ),
  played_games: rules({ user_id: 'internal', app_id: 'archive', play_count: 'archive', first_played_at: 'archive', last_played_at: 'archive' }),
  favourites: rules({ user_id: 'internal', app_id: 'archive', created_at: 'archive' }),
  game_saves: rules({ user_id: 'internal', app_id: 'archive', key: 'archive', value: 'archive', size: 'archive', updated_at: 'archive' }),
  game_save_totals: rules({ user_id: 'internal', app_id: 'internal', total: 'internal' }),
  leaderboard_scores: rules({ app_id: 'archive', board: 'archive', period: 'archive', user_id: 'internal', score: 'archive', achieved_at: 'archive' }),
  achievement_unlocks: rules({ app_id: 'archive', achievement: 'archive', user_id: 'internal', unlocked_at: 'archive' }),
  orders: rules(
    {
      id: 'internal',
      public_id: 'archive',
      user_id: 'internal',
      app_id: 'archive',
      item_id: 'internal',
      sku: 'archive',
      amount_minor: 'archive',
      currency: 'archive',
      status: 'archive',
      provider: 'archive',
      provider_order_id: 'archive',
      provider_transaction_id: 'not-archived',
      idempotency_key: 'internal',
      campaign: 'not-archived',
      created_at: 'archive',
      updated_at: 'internal',
      paid_at: 'archive',
      delivered_at: 'archive',
      credited_at: 'not-archived',
      refund_requested_at: 'not-archived',
      refunded_minor: 'archive',
      refunded_at: 'archive',
      preview: 'archive',
    },
    "the provider's transaction id is on its own receipt; the campaign is the account's, in account.json; crediting and a refund's request are steps of delivery and refund",
  ),
  order_events: rules(
    {
      id: 'internal',
      order_id: 'internal',
      type: 'not-archived',
      event_key: 'internal',
      from_status: 'not-archived',
      to_status: 'not-archived',
      payload: 'not-archived',
      created_at: 'not-archived',
    },
    "each order's history of states, with the provider's notifications: the order's state and dates are archived",
  ),
  inventory: rules({ user_id: 'internal', item_id: 'internal', app_id: 'archive', quantity: 'archive', preview_quantity: 'archive', updated_at: 'archive' }),
  item_consumptions: rules({
    id: 'internal',
    user_id: 'internal',
    item_id: 'internal',
    idempotency_key: 'internal',
    quantity: 'archive',
    remaining: 'internal',
    created_at: 'archive',
    preview: 'archive',
  }),
  game_sessions: rules({
    id: 'internal',
    session_key: 'internal',
    app_id: 'archive',
    user_id: 'internal',
    day: 'archive',
    loading_ms: 'archive',
    to_gameplay_ms: 'archive',
    play_ms: 'archive',
    reports: 'internal',
    created_at: 'archive',
    updated_at: 'archive',
  }),
  operators: rules({ user_id: 'internal', granted_at: 'not-archived' }, "an operator's role is the company's record"),
  audit_log: rules(
    {
      id: 'internal',
      operator_user_id: 'not-archived',
      action: 'not-archived',
      target_type: 'not-archived',
      target_id: 'not-archived',
      detail: 'not-archived',
      created_at: 'not-archived',
    },
    "operators' actions are the company's record; a member asks by mail for what concerns them",
  ),
  developer_profiles: rules({ user_id: 'internal', studio_name: 'archive', contact_email: 'archive', created_at: 'archive', updated_at: 'archive' }),
  studio_keys: rules(
    { id: 'internal', user_id: 'internal', name: 'not-archived', key_hash: 'secret', created_at: 'not-archived', last_used_at: 'not-archived' },
    'the Studio lists its keys',
  ),
  game_builds: rules(
    {
      id: 'not-archived',
      app_id: 'not-archived',
      version: 'not-archived',
      status: 'not-archived',
      reason: 'not-archived',
      uploaded_by: 'internal',
      reviewed_by: 'internal',
      entry_path: 'not-archived',
      file_count: 'not-archived',
      total_bytes: 'not-archived',
      archive_bytes: 'not-archived',
      created_at: 'not-archived',
      submitted_at: 'not-archived',
      reviewed_at: 'not-archived',
    },
    "a game's builds are the studio's work, listed in the Studio",
  ),
  build_uploads: rules({ id: 'internal', user_id: 'internal', app_id: 'internal', bytes: 'internal', created_at: 'internal', touched_at: 'internal' }),
  build_upload_quotas: rules({ user_id: 'internal', day: 'internal', day_bytes: 'internal' }),
  game_changes: rules(
    {
      id: 'not-archived',
      app_id: 'not-archived',
      status: 'not-archived',
      metadata: 'not-archived',
      changes: 'not-archived',
      submitted_by: 'internal',
      created_at: 'not-archived',
      reviewed_by: 'internal',
      reviewed_at: 'not-archived',
      reason: 'not-archived',
    },
    "a live game's changes are the studio's work, listed in the Studio",
  ),
  game_stats_day_players: rules({ app_id: 'internal', day: 'internal', user_id: 'internal' }),
  game_stats_players: rules({ app_id: 'internal', user_id: 'internal', last_day: 'internal' }),
  webhook_deliveries: rules(
    {
      id: 'internal',
      app_id: 'internal',
      event_id: 'internal',
      event_type: 'internal',
      source_key: 'internal',
      payload: 'not-archived',
      status: 'internal',
      attempts: 'internal',
      next_attempt_at: 'internal',
      lease_until: 'internal',
      leased_by: 'internal',
      last_attempt_at: 'internal',
      last_status_code: 'internal',
      last_response: 'internal',
      last_error: 'internal',
      delivered_at: 'internal',
      created_at: 'internal',
    },
    "what games' backends were told of orders and items, which orders.json and items.json hold",
  ),
  two_factor_secrets: rules(
    { user_id: 'internal', secret_sealed: 'secret', confirmed_at: 'archive', last_step: 'internal', created_at: 'not-archived' },
    'when a set-up began says nothing once it is on (confirmed_at)',
  ),
  two_factor_recovery_codes: rules(
    { id: 'internal', user_id: 'internal', code_hash: 'secret', used_at: 'not-archived', created_at: 'not-archived' },
    'the archive counts the codes left',
  ),
  mail_outbox: rules(
    {
      id: 'internal',
      recipient: 'not-archived',
      locale: 'internal',
      template: 'not-archived',
      params: 'secret',
      status: 'internal',
      attempts: 'internal',
      next_attempt_at: 'internal',
      claimed_until: 'internal',
      last_error: 'internal',
      created_at: 'not-archived',
      sent_at: 'not-archived',
    },
    'mail waiting or sent in the last days, keyed by address, not by account: the account’s address is in account.json; the values of a message (codes, links) are secrets',
  ),
  rate_limits: rules({ key: 'internal', count: 'internal', reset_at: 'internal' }),
  revenue_terms: rules(
    {
      id: 'internal',
      studio_user_id: 'internal',
      share_bp: 'not-archived',
      starts_at: 'not-archived',
      reason: 'not-archived',
      set_by_user_id: 'not-archived',
      created_at: 'not-archived',
    },
    STUDIO_MONEY,
  ),
  ledger_entries: rules(
    Object.fromEntries(
      [
        'source_key',
        'kind',
        'currency',
        'order_id',
        'app_id',
        'item_id',
        'payout_id',
        'share_bp',
        'gross_minor',
        'deductions_minor',
        'platform_minor',
        'studio_minor',
        'note',
        'posted_at',
      ]
        .map((c) => [c, 'not-archived' as const])
        .concat([
          ['id', 'internal'],
          ['studio_user_id', 'internal'],
        ]),
    ),
    STUDIO_MONEY,
  ),
  ledger_lines: rules(
    {
      id: 'internal',
      entry_id: 'internal',
      account: 'not-archived',
      studio_user_id: 'internal',
      currency: 'not-archived',
      amount_minor: 'not-archived',
      posted_at: 'not-archived',
      available_at: 'not-archived',
    },
    STUDIO_MONEY,
  ),
  earnings_statements: rules(
    Object.fromEntries(
      ['currency', 'month', 'opening_minor', 'earned_minor', 'refunded_minor', 'corrections_minor', 'payouts_minor', 'closing_minor', 'closed_at']
        .map((c) => [c, 'not-archived' as const])
        .concat([
          ['id', 'internal'],
          ['studio_user_id', 'internal'],
        ]),
    ),
    STUDIO_MONEY,
  ),
  payout_accounts: rules(
    {
      studio_user_id: 'internal',
      method: 'not-archived',
      receiver: 'not-archived',
      legal_name: 'not-archived',
      country: 'not-archived',
      tax_id_sealed: 'secret',
      updated_at: 'not-archived',
    },
    STUDIO_MONEY,
  ),
  payouts: rules(
    Object.fromEntries(
      [
        'public_id',
        'currency',
        'amount_minor',
        'status',
        'method',
        'month',
        'proposed_at',
        'approved_by_user_id',
        'approved_at',
        'sent_at',
        'settled_at',
        'provider_reference',
        'failure',
        'attempts',
        'next_attempt_at',
        'updated_at',
      ]
        .map((c) => [c, 'not-archived' as const])
        .concat([
          ['id', 'internal'],
          ['studio_user_id', 'internal'],
        ]),
    ),
    STUDIO_MONEY,
  ),
};

/**
 * What an account's erasure (decision 147) does to a column of the member's rows that stay:
 * - `emptied`: set to null.
 * - `anonymised`: replaced by a value that names no one (the anonymous nickname, the erasure's time).
 * - `kept`: stays as it is, for the reason given on its table (an opaque id, an amount, a date).
 */
export type ErasureRule = 'emptied' | 'anonymised' | 'kept';

export interface TableErasure {
  /**
   * `deleted`: the member's rows go (`by` names the column that says whose they are). `kept`: they
   * stay, each column as `columns` says, every column named. `expire`: rows tied to no account,
   * gone by themselves within minutes or hours (challenges, rate-limit counters).
   */
  rows: 'deleted' | 'kept' | 'expire';
  /** The column naming the member: the account's id, or for mail the address. */
  by?: string;
  columns?: Record<string, ErasureRule>;
  why?: string;
}

const deleted = (by: string): TableErasure => ({ rows: 'deleted', by });
const expire = (why: string): TableErasure => ({ rows: 'expire', why });
const kept = <const T extends Record<string, ErasureRule>>(by: string | undefined, columns: T, why: string): TableErasure => ({
  rows: 'kept',
  ...(by ? { by } : {}),
  columns,
  why,
});
/** Every column of a table kept as it is. */
const allKept = (table: string): Record<string, ErasureRule> =>
  Object.fromEntries(Object.keys(PERSONAL_DATA_COLUMNS[table]!.columns).map((column) => [column, 'kept' as const]));

/**
 * The erasure of each table with personal data (decision 147, docs/decisions/147-account-deletion-and-retention.md):
 * `personal-data-columns.db.test.ts` fails when a table has none, or a kept table a column without
 * one; `account-erasure.db.test.ts` erases a member with data in every table and checks each rule.
 */
/** Why a studio's money stays after its erasure (decision 149). */
const ACCOUNTING =
  "a studio's ledger, statements and payouts are accounting records (kept 10 years, decision 147), amounts and dates tied only to the opaque id; where it was paid goes";

export const ERASURE_RULES: Record<string, TableErasure> = {
  users: kept(
    'id',
    {
      id: 'kept',
      nickname: 'anonymised',
      avatar: 'emptied',
      username: 'emptied',
      username_normalized: 'emptied',
      password_hash: 'emptied',
      email: 'emptied',
      phone: 'emptied',
      fingerprint_hash: 'emptied',
      fingerprint_at: 'emptied',
      device_id_hash: 'emptied',
      last_network: 'emptied',
      last_seen_at: 'emptied',
      webauthn_user_id: 'emptied',
      campaign: 'emptied',
      is_guest: 'kept',
      created_at: 'anonymised',
      updated_at: 'anonymised',
      disabled_at: 'emptied',
      first_app_id: 'emptied',
      first_played_at: 'emptied',
      email_verified_at: 'emptied',
      mail_locale: 'emptied',
      deletion_requested_at: 'emptied',
      deletion_restored_at: 'emptied',
      erased_at: 'kept',
    },
    'the row stays as the opaque id kept scores, orders, builds and the audit log point to, named "player-" and six random hex digits; every date of it is the erasure\'s',
  ),
  access_tokens: deleted('user_id'),
  email_verifications: deleted('user_id'),
  password_resets: deleted('user_id'),
  sign_in_devices: deleted('user_id'),
  sign_in_failures: deleted('user_id'),
  social_accounts: deleted('user_id'),
  webauthn_credentials: deleted('user_id'),
  auth_challenges: deleted('user_id'),
  social_challenges: expire('sign-in flows and WhatsApp codes tied to no account, live for minutes, removed by the hourly clean-up once expired'),
  data_exports: deleted('user_id'),
  apps: kept(
    'developer_user_id',
    allKept('apps'),
    "a developer's published games stay listed under the studio name on their listing (apps.developer); no one manages them in the Studio any more (the developer id is the erased account's), operators can unpublish them",
  ),
  played_games: deleted('user_id'),
  favourites: deleted('user_id'),
  game_saves: deleted('user_id'),
  game_save_totals: deleted('user_id'),
  leaderboard_scores: kept('user_id', allKept('leaderboard_scores'), 'scores stay on the boards, shown under the anonymous name'),
  achievement_unlocks: deleted('user_id'),
  orders: kept(
    'user_id',
    { ...allKept('orders'), campaign: 'emptied' },
    "orders are accounting records (kept 10 years, decision 147): amounts, states, dates and the provider's ids stay, tied only to the opaque id; the campaign goes",
  ),
  order_events: kept(
    undefined,
    { ...allKept('order_events'), payload: 'emptied' },
    "each order's history of states stays with the order; the provider's notifications, which may name the payer, are emptied",
  ),
  inventory: deleted('user_id'),
  item_consumptions: deleted('user_id'),
  game_sessions: kept(
    'user_id',
    allKept('game_sessions'),
    "play sessions' timings, tied only to the opaque id, make the studios' statistics, which do not change",
  ),
  operators: deleted('user_id'),
  audit_log: kept(undefined, allKept('audit_log'), "operators' actions are the company's record; they name the member by the opaque id only"),
  developer_profiles: deleted('user_id'),
  revenue_terms: kept('studio_user_id', allKept('revenue_terms'), ACCOUNTING),
  ledger_entries: kept('studio_user_id', allKept('ledger_entries'), ACCOUNTING),
  ledger_lines: kept('studio_user_id', allKept('ledger_lines'), ACCOUNTING),
  earnings_statements: kept('studio_user_id', allKept('earnings_statements'), ACCOUNTING),
  payouts: kept('studio_user_id', allKept('payouts'), ACCOUNTING),
  payout_accounts: deleted('studio_user_id'),
  studio_keys: deleted('user_id'),
  game_builds: kept(undefined, allKept('game_builds'), "a game's builds stay with the game; who uploaded or reviewed one is the opaque id"),
  build_uploads: deleted('user_id'),
  build_upload_quotas: deleted('user_id'),
  game_changes: kept(undefined, allKept('game_changes'), "a live game's changes stay with the game; who submitted one is the opaque id"),
  game_stats_day_players: kept('user_id', allKept('game_stats_day_players'), "the studios' player counts, tied only to the opaque id"),
  game_stats_players: kept('user_id', allKept('game_stats_players'), "the studios' player counts, tied only to the opaque id"),
  webhook_deliveries: kept(
    undefined,
    allKept('webhook_deliveries'),
    "what games' backends were told, the player named by the opaque id games saw (player.deleted among them), pruned after 30 days",
  ),
  two_factor_secrets: deleted('user_id'),
  two_factor_recovery_codes: deleted('user_id'),
  mail_outbox: deleted('recipient'),
  rate_limits: expire('counters keyed by address or account id, each gone when its window ends (at most a day)'),
};
