import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/*
 * One schema for SQLite and PostgreSQL. Times are ISO-8601 UTC strings (they sort
 * as text and read the same from both drivers); flags are 0/1 integers.
 */
type Id = Generated<number>;
type Time = string;
type Flag = number;

export interface UsersTable {
  id: Id;
  nickname: string | null;
  avatar: string | null;
  username: string | null;
  /** Lower-cased username, unique: sign-in is case-insensitive. */
  username_normalized: string | null;
  password_hash: string | null;
  email: string | null;
  phone: string | null;
  /** Hash of the device fingerprint of the browser that created a guest account. */
  fingerprint_hash: string | null;
  /** When the fingerprint was recorded (decision 066); device sign-in prefers the first. */
  fingerprint_at: string | null;
  /** Hash of the device id the browser keeps, recorded with the fingerprint: device sign-in needs both (decision 081). */
  device_id_hash: string | null;
  /** The network (IPv4 /24, IPv6 /48) a guest was last used from: device sign-in works only from there. */
  last_network: string | null;
  /** When a guest was last used (created, signed in, its user info loaded); the clean-up reads it. */
  last_seen_at: Time | null;
  /** The WebAuthn user handle (base64url of 32 random bytes), made with the first passkey. */
  webauthn_user_id: string | null;
  /** JSON: the campaign tags (utm source, medium, campaign, term, content) the account was created with. */
  campaign: string | null;
  is_guest: Flag;
  created_at: Time;
  updated_at: Time;
  /** When an operator disabled the account (decision 098): no sign-in, no session; null when enabled. */
  disabled_at: Generated<Time | null>;
  /** The account's first game and when it was first played (migration 0026, decision 104), kept by triggers on played_games. */
  first_app_id: Generated<number | null>;
  first_played_at: Generated<Time | null>;
  /** When the current email address was confirmed (decision 146); null when it is not. Only a confirmed address is used for recovery. */
  email_verified_at: Generated<Time | null>;
  /** The language of the page where the address was saved or confirmed: notices go out in it (decision 148). */
  mail_locale: Generated<string | null>;
  /** When the member asked to delete the account (migration 0039, decision 147): closed at once, erased 30 days later; null otherwise. */
  deletion_requested_at: Generated<Time | null>;
  /** When a sign-in within the 30 days restored an account whose deletion was asked for. */
  deletion_restored_at: Generated<Time | null>;
  /** When the account was erased: the row stays only as the opaque id kept scores and orders point to. */
  erased_at: Generated<Time | null>;
}

export interface AccessTokensTable {
  id: Id;
  user_id: number;
  /** SHA-256 of the random part of `{id}|{random}`, hex. */
  token_hash: string;
  name: string;
  last_used_at: Time | null;
  expires_at: Time | null;
  created_at: Time;
}

export interface SocialAccountsTable {
  id: Id;
  user_id: number;
  platform: string;
  provider_user_id: string;
  display_name: string | null;
  email: string | null;
  created_at: Time;
}

export interface WebauthnCredentialsTable {
  id: Id;
  user_id: number;
  credential_id: string;
  public_key: string;
  counter: number;
  transports: string | null;
  device_type: string | null;
  backed_up: Flag;
  name: string | null;
  /** The authenticator model, when it says (all zeros when it does not). */
  aaguid: string | null;
  created_at: Time;
  last_used_at: Time | null;
}

/** What an app sells (decision 064): prices in integer minor units, names per locale as JSON. */
export interface AppItemsTable {
  id: Id;
  app_id: number;
  sku: string;
  price_minor: number;
  currency: string;
  names: string;
  /** Owned once bought, or used up from the player's inventory (decision 091). */
  kind: Generated<ItemKind>;
  /** 0 once the catalogue no longer lists it: kept for the orders that name it. */
  active: Flag;
  created_at: Time;
  updated_at: Time;
}

export type ItemKind = 'permanent' | 'consumable';

export type OrderStatus = 'created' | 'pending' | 'paid' | 'failed' | 'refunded' | 'cancelled';

export interface OrdersTable {
  id: Id;
  /** The id shown to members and sent to the provider as the external id. */
  public_id: string;
  user_id: number;
  app_id: number;
  item_id: number;
  sku: string;
  amount_minor: number;
  currency: string;
  status: OrderStatus;
  provider: string;
  provider_order_id: string | null;
  provider_transaction_id: string | null;
  idempotency_key: string;
  campaign: string | null;
  created_at: Time;
  updated_at: Time;
  paid_at: Time | null;
  /** When the game was told (the SDK's purchase event): once. */
  delivered_at: Time | null;
  /** When a paid consumable order was added to the inventory: once (decision 091). */
  credited_at: Generated<Time | null>;
  /** When an operator asked the provider to refund it (decision 098): set once, cleared if the provider refused. */
  refund_requested_at: Generated<Time | null>;
  /** Minor units given back (migration 0032, decision 124): partial refunds add up; a full refund is the whole amount. */
  refunded_minor: Generated<number>;
  /** The latest refund's time, null until one. */
  refunded_at: Generated<Time | null>;
  /** 1: made in a build's preview, a sandbox test (migration 0027); left out of the Studio's statistics. */
  preview: Generated<Flag>;
}

/** Every state change of an order, never updated or deleted. */
export interface OrderEventsTable {
  id: Id;
  order_id: number;
  type: string;
  event_key: string;
  from_status: string | null;
  to_status: string;
  payload: string | null;
  created_at: Time;
}

export interface GameSavesTable {
  user_id: number;
  app_id: number;
  key: string;
  value: string;
  size: number;
  updated_at: Time;
}

/** A member's bytes of cloud saves for one app: the row a save locks to check the quota. */
/** What a player holds of a game's consumable items (decision 091). */
export interface InventoryTable {
  user_id: number;
  item_id: number;
  app_id: number;
  quantity: number;
  /** What test orders of a build's preview added (migration 0029, decision 111): only a preview sees it. */
  preview_quantity: Generated<number>;
  updated_at: Time;
}

/** Each consumption once, by the player's idempotency key. */
export interface ItemConsumptionsTable {
  id: Id;
  user_id: number;
  item_id: number;
  idempotency_key: string;
  quantity: number;
  remaining: number;
  created_at: Time;
  /** 1: made in a build's preview, from the test inventory (migration 0029). */
  preview: Generated<Flag>;
}

export interface GameSaveTotalsTable {
  user_id: number;
  app_id: number;
  total: number;
}

/** A player's best score on one board in one period ("all-time", "daily:2026-11-26", "weekly:2026-W48"; decision 092). */
export interface LeaderboardScoresTable {
  app_id: number;
  board: string;
  period: string;
  user_id: number;
  score: number;
  achieved_at: Time;
}

/** An achievement a player unlocked, once (decision 092). */
export interface AchievementUnlocksTable {
  app_id: number;
  achievement: string;
  user_id: number;
  unlocked_at: Time;
}

/**
 * The generation of a game's backend secret as it was derived from APP_SECRET (decision 092); read
 * once at start-up to store that secret in `game_credentials` (decision 110).
 */
export interface GameSecretsTable {
  app_id: number;
  generation: number;
  created_at: Time;
}

export type GameCredentialKind = 'backend' | 'webhook';

/** A game's own secret of each kind (decision 110), sealed under APP_SECRET; the previous one verifies until it expires. */
export interface GameCredentialsTable {
  app_id: number;
  kind: GameCredentialKind;
  sealed: string;
  created_at: Time;
  previous_sealed: string | null;
  previous_expires_at: Time | null;
}

/** A value sealed under the server's current key: who opens it uses the same APP_SECRET (decision 110). */
export interface SecretKeyChecksTable {
  name: string;
  sealed: string;
  updated_at: Time;
}

/** Signatures of backend calls already accepted, kept until their timestamp is too old anyway. */
export interface GameBackendCallsTable {
  app_id: number;
  signature: string;
  expires_at: Time;
}

/** One-time challenges of sign-in ceremonies, shared by every instance. */
export interface AuthChallengesTable {
  id: string;
  purpose: string;
  challenge: string;
  user_id: number | null;
  payload: string | null;
  /** Guesses taken (WhatsApp codes): counted before each is checked. */
  attempts: Generated<number>;
  expires_at: Time;
  created_at: Time;
}

/** The confirmation of an address a member saved, waiting for its code (migration 0038, decision 146): one per member. */
export interface EmailVerificationsTable {
  user_id: number;
  /** The address the code was sent to: a code confirms that address only. */
  email: string;
  /** SHA-256 of the user id and the 6-digit code. */
  code_hash: string;
  /** Wrong codes so far; the fifth ends the confirmation. */
  attempts: Generated<number>;
  expires_at: Time;
  created_at: Time;
}

/** A "Forgot password" link (migration 0038, decision 146), or a notice's "this wasn't me" link (decision 148): single use. */
export interface PasswordResetsTable {
  /** SHA-256 of the link's random part. */
  token_hash: string;
  user_id: number;
  /** `reset`: chooses a new password (30 minutes); `not-me`: ends every session, then leads to a reset (7 days). */
  purpose: Generated<string>;
  expires_at: Time;
  used_at: Time | null;
  created_at: Time;
}

/** A browser, system and network an account signed in from (migration 0038, decision 148): a sign-in from a new one is told by mail. */
export interface SignInDevicesTable {
  user_id: number;
  /** SHA-256, keyed with APP_SECRET, of the account, browser, system and network (IPv4 /24, IPv6 /48). */
  device_hash: string;
  /** "Chrome on Windows": what the notice names. */
  label: string;
  first_at: Time;
  last_at: Time;
}

/** A member's authenticator-app secret (migration 0037, decision 145). */
export interface TwoFactorSecretsTable {
  user_id: number;
  /** The base32 secret, sealed under APP_SECRET (server/lib/secret-box.ts). */
  secret_sealed: string;
  /** Null while set-up waits for the first code: not asked at sign-in yet. */
  confirmed_at: Time | null;
  /** The time step of the last code accepted: a code works once. */
  last_step: number | null;
  created_at: Time;
}

/** A member's single-use recovery codes (migration 0037, decision 145). */
export interface TwoFactorRecoveryCodesTable {
  id: string;
  user_id: number;
  /** SHA-256 of the code (ten random characters from 32: 50 bits, not guessable under the rate limit). */
  code_hash: string;
  used_at: Time | null;
  created_at: Time;
}

/** Members' downloads of their data (migration 0036, decision 144). */
export interface DataExportsTable {
  /** Random, also in the signed link. */
  id: string;
  user_id: number;
  /** The operator who asked on the member's behalf; null when the member asked. */
  requested_by: number | null;
  status: 'pending' | 'ready' | 'failed' | 'expired';
  storage_key: string | null;
  size_bytes: number | null;
  attempts: Generated<number>;
  error: string | null;
  /** While an instance prepares it: until when the others leave it alone. */
  claimed_until: Time | null;
  created_at: Time;
  ready_at: Time | null;
  expires_at: Time | null;
}

/** The social feature's one-time challenges (migration 0033): identity-provider flows and WhatsApp codes. */
export interface SocialChallengesTable {
  id: string;
  purpose: string;
  challenge: string;
  payload: string | null;
  /** Guesses taken (WhatsApp codes): counted before each is checked. */
  attempts: Generated<number>;
  expires_at: Time;
  created_at: Time;
}

/** Fixed-window counters for rate limits when no Redis is configured. */
export interface RateLimitsTable {
  key: string;
  count: number;
  reset_at: number;
}

export interface CategoriesTable {
  id: Id;
  slug: string;
  icon: string | null;
  sort: number;
  created_at: Time;
  updated_at: Time;
}

export interface CategoryTranslationsTable {
  category_id: number;
  locale: string;
  title: string;
  description: string | null;
}

export interface TagsTable {
  id: Id;
  slug: string;
  created_at: Time;
}

export interface TagTranslationsTable {
  tag_id: number;
  locale: string;
  title: string;
}

export interface AppsTable {
  id: Id;
  slug: string;
  type: 'game' | 'app';
  entry_url: string;
  thumbnail: string;
  /** The wide cover image set in the Studio (decision 096); null when there is none. */
  cover: Generated<string | null>;
  screenshots: string;
  /** JSON array of the origins a hosted game may connect to (decision 089). */
  backend_origins: Generated<string>;
  /** JSON: the leaderboards the game declares (decision 092). */
  leaderboards: Generated<string>;
  /** JSON: the achievements the game declares (decision 092). */
  achievements: Generated<string>;
  orientation: 'portrait' | 'landscape' | 'any';
  width: number;
  height: number;
  developer: string | null;
  featured: Flag;
  /** Seeded plays plus recorded plays: the "popular" order. */
  play_count: number;
  released_at: Time;
  published: Flag;
  /** The member whose studio made the game (decision 095); null for the portal's own games. */
  developer_user_id: Generated<number | null>;
  /** The approved build players get, for a developer's game (decision 097); null for house games and before the first approval. */
  live_build_id: Generated<number | null>;
  /** Who last set `published` and `featured` (decision 099): the import leaves a `console` choice alone. */
  listing_source: Generated<ContentSource>;
  created_at: Time;
  updated_at: Time;
}

/** Members who run the portal (decision 095): granted by `npm run operators`, never by an API. */
export interface OperatorsTable {
  user_id: number;
  granted_at: Time;
}

/** A member's studio: what makes them a developer (decision 095). */
export interface DeveloperProfilesTable {
  user_id: number;
  studio_name: string;
  contact_email: string;
  created_at: Time;
  updated_at: Time;
}

/** What operators did (decision 095): written by `AuditLogService`, never changed (the database refuses). */
export interface AuditLogTable {
  id: Id;
  operator_user_id: number;
  /** What was done: `build.approve`, `order.refund`, `member.disable`, … */
  action: string;
  /** What it was done to: `game`, `build`, `order`, `member`, `article`, `page`. */
  target_type: string;
  target_id: string;
  /** JSON: the reason and what changed. */
  detail: string;
  created_at: Time;
}

/** A game's webhook (decision 100): where to send; `secret_generation` only names the derived secret of before decision 110. */
export interface GameWebhooksTable {
  app_id: number;
  url: string | null;
  secret_generation: number;
  created_at: Time;
  updated_at: Time;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** The webhook outbox (decision 100): one row per event to send, claimed by a worker with a lease. */
export interface WebhookDeliveriesTable {
  id: Id;
  app_id: number;
  event_id: string;
  /** `order.paid`, `order.partially_refunded`, `order.refunded`, `items.consumed`, `player.deleted`, `test`. */
  event_type: string;
  source_key: string;
  /** The JSON body, fixed when the event happened. */
  payload: string;
  status: WebhookDeliveryStatus;
  attempts: Generated<number>;
  next_attempt_at: Time;
  lease_until: Time | null;
  leased_by: string | null;
  last_attempt_at: Time | null;
  last_status_code: number | null;
  /** The first bytes of the last answer's body. */
  last_response: string | null;
  last_error: string | null;
  delivered_at: Time | null;
  created_at: Time;
}

/** A numbered upload of a developer's game and its review (decision 097). */
/** A live game's change waiting for review, or reviewed (migration 0030, decision 112). */
export interface GameChangesTable {
  id: Id;
  app_id: number;
  /** `pending` until an operator approves or rejects it; `withdrawn` by the studio; `superseded` by a newer save. */
  status: 'pending' | 'approved' | 'rejected' | 'withdrawn' | 'superseded';
  /** JSON: the whole form as saved (the Studio's metadata, normalised). */
  metadata: string;
  /** JSON: what differs from the live game when it was saved. */
  changes: string;
  submitted_by: number;
  created_at: Time;
  reviewed_by: number | null;
  reviewed_at: Time | null;
  /** The operator's reason when rejected. */
  reason: string | null;
}

/** An item's price as changed by an approved change (migration 0030): old is null for a new item. */
export interface ItemPriceChangesTable {
  id: Id;
  app_id: number;
  sku: string;
  currency: string;
  old_price_minor: number | null;
  new_price_minor: number;
  old_currency: string | null;
  requested_by: number;
  approved_by: number;
  change_id: number;
  changed_at: Time;
}

export interface GameBuildsTable {
  id: Id;
  app_id: number;
  version: number;
  status: 'uploaded' | 'submitted' | 'approved' | 'rejected';
  /** Why an operator rejected it, shown to the developer. */
  reason: string | null;
  uploaded_by: number | null;
  reviewed_by: number | null;
  /** The entry document inside the build (index.html). */
  entry_path: string;
  file_count: number;
  /** Uncompressed bytes of all files. */
  total_bytes: number;
  /** Bytes of the uploaded zip. */
  archive_bytes: number;
  created_at: Time;
  submitted_at: Time | null;
  reviewed_at: Time | null;
}

/** A failed sign-in (decision 098): who or which identifier, how, when, from where. Bounded per identifier and in all. */
export interface SignInFailuresTable {
  id: Id;
  user_id: number | null;
  /** The username, phone or account the attempt named (lower-cased username). */
  identifier: string;
  /** `password`, `whatsapp`, `passkey`. */
  method: string;
  address: string;
  created_at: Time;
}

export interface AppTranslationsTable {
  app_id: number;
  locale: string;
  title: string;
  summary: string;
  description: string;
  instructions: string | null;
}

/**
 * Search tokens of one app in one locale (server/features/catalogue/catalogue-search.ts), written
 * by the importer. An FTS5 table in SQLite; in PostgreSQL it also has a generated tsvector column.
 */
export interface AppSearchTable {
  app_id: number;
  locale: string;
  tokens: string;
}

export interface AppCategoriesTable {
  app_id: number;
  category_id: number;
}

export interface AppTagsTable {
  app_id: number;
  tag_id: number;
}

export interface PlayedGamesTable {
  user_id: number;
  app_id: number;
  play_count: number;
  first_played_at: Time;
  last_played_at: Time;
}

export interface FavouritesTable {
  user_id: number;
  app_id: number;
  created_at: Time;
}

export interface ArticleColumnsTable {
  id: Id;
  slug: string;
  parent_id: number | null;
  sort: number;
  cover: string | null;
  created_at: Time;
  updated_at: Time;
}

export interface ArticleColumnTranslationsTable {
  column_id: number;
  locale: string;
  title: string;
  description: string | null;
}

export interface ArticlesTable {
  /** Ids come from the content files, so links stay stable across imports. */
  id: number;
  column_id: number;
  slug: string;
  cover: string | null;
  author: string | null;
  published_at: Time;
  /** Where the current text came from (decision 099): the import leaves `console` articles alone. */
  source: Generated<ContentSource>;
  created_at: Time;
  updated_at: Time;
}

/** Who wrote an article's or page's current text: the content import, or an operator in the Console. */
export type ContentSource = 'import' | 'console';

export interface ArticleTranslationsTable {
  article_id: number;
  locale: string;
  title: string;
  summary: string;
  body_html: string;
  /** The Markdown an operator wrote in the Console; null for imported text (its HTML is its source). */
  body_markdown: Generated<string | null>;
  reading_minutes: number;
  tags: string;
  /** The author's name as this translation writes it; null means the article's (English) one. */
  author: string | null;
}

export interface PagesTable {
  slug: string;
  locale: string;
  title: string;
  description: string | null;
  body_html: string;
  /** The Markdown an operator wrote in the Console; null for imported text. */
  body_markdown: Generated<string | null>;
  /** Where the current text came from (decision 099). */
  source: Generated<ContentSource>;
  /** When readers first see a page written in the Console (decision 099); null: at once. */
  published_at: Generated<Time | null>;
  updated_at: Time;
}

/** Server-driven redirects looked up by path (spec section 2, global middleware). */
export interface RedirectsTable {
  path: string;
  destination: string;
  status: number;
  created_at: Time;
}

/** A visit of a game's play page and what it measured (decision 093). */
/** The daily rollup of play sessions (migration 0025, decision 103), kept by triggers on game_sessions. */
export interface GameStatsDaysTable {
  app_id: number;
  day: string;
  plays: number;
  /** bigint: PostgreSQL returns it as text. */
  play_ms: number | string;
  /** Distinct accounts that played the game that day. */
  players: number;
  /** Accounts whose latest day of play of the game is this day. */
  last_players: number;
}

/** Sessions per game, day and 100 ms bucket of time to gameplay. */
export interface GameStatsGameplayTable {
  app_id: number;
  day: string;
  bucket: number;
  sessions: number;
}

export interface GameStatsDayPlayersTable {
  app_id: number;
  day: string;
  user_id: number;
}

export interface GameStatsPlayersTable {
  app_id: number;
  user_id: number;
  last_day: string;
}

export interface GameSessionsTable {
  id: Id;
  session_key: string;
  app_id: number;
  /** Null once the account was removed: the figures stay the game's. */
  user_id: number | null;
  /** UTC day of created_at, YYYY-MM-DD. */
  day: string;
  loading_ms: number | null;
  to_gameplay_ms: number | null;
  play_ms: number;
  reports: number;
  created_at: Time;
  updated_at: Time;
}

/** A developer's key for build pipelines (decision 102): `pk_{id}_{random}`, only the hash kept. */
export interface StudioKeysTable {
  id: Id;
  user_id: number;
  name: string;
  /** SHA-256 of the random part of `pk_{id}_{random}`, hex. */
  key_hash: string;
  created_at: Time;
  last_used_at: Time | null;
}

/** An unfinished tus upload of a build (migration 0031, decision 109); its file is `BUILDS_DIR/.incoming/<id>`. */
export interface BuildUploadsTable {
  id: string;
  /** The studio (its developer) the upload counts against. */
  user_id: number;
  app_id: number;
  /** The size the upload announced (`Upload-Length`), charged to the day's bytes when it opened. */
  bytes: number;
  created_at: Time;
  /** When the upload was opened or last received a piece: older than the expiry, it is abandoned. */
  touched_at: Time;
}

/** A studio's upload budget row (migration 0031): locked before an upload opens; the bytes opened on `day` (UTC). */
export interface BuildUploadQuotasTable {
  user_id: number;
  day: string;
  day_bytes: number | string;
}

/** A message to send (migration 0034, decision 141): rendered from `template` and `params` when sent. */
export interface MailOutboxTable {
  id: Generated<number>;
  /** The address the message goes to. */
  recipient: string;
  /** The language of the message: en or zh-CN. */
  locale: string;
  /** A template's name (server/features/mail/templates/). */
  template: string;
  /** The template's values, JSON. */
  params: string;
  /** pending until delivered (sent) or given up (failed). */
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  /** Not tried before this time: the retry backoff. */
  next_attempt_at: Time;
  /** A sender's claim runs until this time; before it no other sender takes the row. */
  claimed_until: Time;
  /** The mail server's answer on the last failed attempt. */
  last_error: string | null;
  created_at: Time;
  sent_at: Time | null;
}

/** A studio's share of what an order leaves after the provider's deductions, from a date (decision 149). */
export interface RevenueTermsTable {
  id: Id;
  studio_user_id: number;
  /** The studio's share in basis points (7000: 70%). */
  share_bp: number;
  starts_at: Time;
  reason: string;
  /** The operator who set it; null when set by a command. */
  set_by_user_id: number | null;
  created_at: Time;
}

/** A money event in the ledger (decision 149): its lines sum to zero; never changed (the database refuses). */
export interface LedgerEntriesTable {
  id: Id;
  /** What posted it, once: `order-event:<id>`, `payout:<id>:sent`, `correction:<id>`. */
  source_key: string;
  /** `payment`, `refund`, `chargeback`, `correction`, `payout`, `payout-sent`, `payout-returned`. */
  kind: string;
  currency: string;
  order_id: number | null;
  app_id: number | null;
  item_id: number | null;
  studio_user_id: number | null;
  payout_id: number | null;
  share_bp: number | null;
  /** What the buyer paid (negative: got back), and how it was split; the lines say the same per account. */
  gross_minor: number;
  deductions_minor: number;
  platform_minor: number;
  studio_minor: number;
  note: string | null;
  posted_at: Time;
}

/** One account's side of a ledger entry, signed (positive: the account is owed or holds more). */
export interface LedgerLinesTable {
  id: Id;
  entry_id: number;
  /** `buyers`, `provider-deductions`, `platform`, `studio`, `payouts-in-transit`, `payouts-sent`. */
  account: string;
  studio_user_id: number | null;
  currency: string;
  amount_minor: number;
  posted_at: Time;
  /** When the amount can be paid out: a payment's studio share after the hold; anything else at once. */
  available_at: Time;
}

/** A studio's month in one currency, closed after the month ended and never changed. */
export interface EarningsStatementsTable {
  id: Id;
  studio_user_id: number;
  currency: string;
  /** `YYYY-MM`, in UTC. */
  month: string;
  opening_minor: number;
  earned_minor: number;
  refunded_minor: number;
  corrections_minor: number;
  payouts_minor: number;
  closing_minor: number;
  closed_at: Time;
}

/** A closed statement's lines: per kind, game and item. */
export interface EarningsStatementLinesTable {
  statement_id: number;
  kind: string;
  app_id: number | null;
  item_id: number | null;
  entries: number;
  gross_minor: number;
  deductions_minor: number;
  platform_minor: number;
  studio_minor: number;
}

/** Where a studio is paid, and the identity a payout provider needs (the tax id sealed under APP_SECRET). */
export interface PayoutAccountsTable {
  studio_user_id: number;
  /** `stand-in` or `paypal`. */
  method: string;
  /** The payout provider's receiver: an email address for PayPal. */
  receiver: string;
  legal_name: string;
  country: string;
  tax_id_sealed: string | null;
  updated_at: Time;
}

/** A payout of a studio's available balance: proposed, approved by an operator, sent, and settled. */
export interface PayoutsTable {
  id: Id;
  public_id: string;
  studio_user_id: number;
  currency: string;
  amount_minor: number;
  /** `proposed`, `approved`, `sent`, `paid`, `failed`, `returned`, `rejected`. */
  status: string;
  method: string;
  /** The month whose end proposed it, `YYYY-MM`. */
  month: string;
  proposed_at: Time;
  approved_by_user_id: number | null;
  approved_at: Time | null;
  sent_at: Time | null;
  settled_at: Time | null;
  provider_reference: string | null;
  failure: string | null;
  attempts: Generated<number>;
  next_attempt_at: Time | null;
  updated_at: Time;
}

export interface Database {
  users: UsersTable;
  access_tokens: AccessTokensTable;
  social_accounts: SocialAccountsTable;
  webauthn_credentials: WebauthnCredentialsTable;
  auth_challenges: AuthChallengesTable;
  social_challenges: SocialChallengesTable;
  data_exports: DataExportsTable;
  two_factor_secrets: TwoFactorSecretsTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
  email_verifications: EmailVerificationsTable;
  password_resets: PasswordResetsTable;
  sign_in_devices: SignInDevicesTable;
  app_items: AppItemsTable;
  orders: OrdersTable;
  revenue_terms: RevenueTermsTable;
  ledger_entries: LedgerEntriesTable;
  ledger_lines: LedgerLinesTable;
  earnings_statements: EarningsStatementsTable;
  earnings_statement_lines: EarningsStatementLinesTable;
  payout_accounts: PayoutAccountsTable;
  payouts: PayoutsTable;
  order_events: OrderEventsTable;
  game_saves: GameSavesTable;
  game_save_totals: GameSaveTotalsTable;
  inventory: InventoryTable;
  item_consumptions: ItemConsumptionsTable;
  leaderboard_scores: LeaderboardScoresTable;
  achievement_unlocks: AchievementUnlocksTable;
  game_secrets: GameSecretsTable;
  game_backend_calls: GameBackendCallsTable;
  rate_limits: RateLimitsTable;
  categories: CategoriesTable;
  category_translations: CategoryTranslationsTable;
  tags: TagsTable;
  tag_translations: TagTranslationsTable;
  apps: AppsTable;
  app_translations: AppTranslationsTable;
  app_search: AppSearchTable;
  app_categories: AppCategoriesTable;
  app_tags: AppTagsTable;
  played_games: PlayedGamesTable;
  favourites: FavouritesTable;
  article_columns: ArticleColumnsTable;
  article_column_translations: ArticleColumnTranslationsTable;
  articles: ArticlesTable;
  article_translations: ArticleTranslationsTable;
  pages: PagesTable;
  redirects: RedirectsTable;
  game_sessions: GameSessionsTable;
  game_stats_days: GameStatsDaysTable;
  game_stats_gameplay: GameStatsGameplayTable;
  game_stats_day_players: GameStatsDayPlayersTable;
  game_stats_players: GameStatsPlayersTable;
  operators: OperatorsTable;
  developer_profiles: DeveloperProfilesTable;
  audit_log: AuditLogTable;
  game_webhooks: GameWebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  game_builds: GameBuildsTable;
  sign_in_failures: SignInFailuresTable;
  studio_keys: StudioKeysTable;
  game_changes: GameChangesTable;
  item_price_changes: ItemPriceChangesTable;
  build_uploads: BuildUploadsTable;
  mail_outbox: MailOutboxTable;
  build_upload_quotas: BuildUploadQuotasTable;
  game_credentials: GameCredentialsTable;
  secret_key_checks: SecretKeyChecksTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type AppRow = Selectable<AppsTable>;
export type { ColumnType };
