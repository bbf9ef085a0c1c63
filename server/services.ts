import { TwoFactorRepository } from './features/two-factor/two-factor.repository.ts';
import { TwoFactorService } from './features/two-factor/two-factor.service.ts';
import { DataExportsRepository } from './features/member-data/data-exports.repository.ts';
import { MemberDataService } from './features/member-data/member-data.service.ts';
import { AdvertisingIdsService } from './features/tracking/advertising-ids.service.ts';
import { ConversionsService } from './features/tracking/conversions.service.ts';
import { GameSessionsRepository } from './features/tracking/game-sessions.repository.ts';
import { GameSessionsService } from './features/tracking/game-sessions.service.ts';
import type { MetaConversionsApi } from './adapters/conversions/meta-conversions-api.ts';
import type { ContentChanges } from './adapters/content-changes/content-changes.ts';
import type { DevelopmentInbox } from './adapters/whatsapp/code-sender.ts';
import type { FileStorage } from './adapters/storage/file-storage.ts';
import { SandboxPayments } from './adapters/payments/sandbox-payments.ts';
import { XsollaNotifications } from './adapters/payments/xsolla-notifications.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { AccessTokensRepository } from './features/accounts/access-tokens.repository.ts';
import { AccessTokensService } from './features/accounts/access-tokens.service.ts';
import { AccountsService } from './features/accounts/accounts.service.ts';
import { AvatarsService } from './features/accounts/avatars.service.ts';
import { Argon2PasswordHasher } from './features/accounts/password-hasher.ts';
import { guestNickname } from './features/accounts/guest-nicknames.ts';
import { GuestChallenges } from './features/accounts/guest-challenges.ts';
import { GuestMergeRepository } from './features/accounts/guest-merge.repository.ts';
import { AccountDeletionService } from './features/accounts/account-deletion.service.ts';
import { type GuestMergeStep, GuestMergeService } from './features/accounts/guest-merge.service.ts';
import { ZxcvbnPasswordPolicy } from './features/accounts/password-policy.ts';
import { UsersRepository } from './features/accounts/users.repository.ts';
import { AccountRecoveryRepository } from './features/accounts/account-recovery.repository.ts';
import { SignInFailuresRepository } from './features/accounts/sign-in-failures.repository.ts';
import { SignInFailuresService } from './features/accounts/sign-in-failures.service.ts';
import { StoredMediaStore } from './features/articles/article-media.ts';
import type { ArticleImportTarget } from './features/articles/articles.import.ts';
import { ArticlesImportRepository } from './features/articles/articles-import.repository.ts';
import { ArticlesRepository } from './features/articles/articles.repository.ts';
import { ArticlesService } from './features/articles/articles.service.ts';
import { SitemapRepository } from './features/articles/sitemap.repository.ts';
import { SitemapService } from './features/articles/sitemap.service.ts';
import { CatalogueImportRepository } from './features/catalogue/catalogue-import.repository.ts';
import { CatalogueRepository } from './features/catalogue/catalogue.repository.ts';
import { CatalogueService } from './features/catalogue/catalogue.service.ts';
import { MemberLibraryRepository } from './features/catalogue/member-library.repository.ts';
import { MemberLibraryService } from './features/catalogue/member-library.service.ts';
import { PagesRepository } from './features/pages/pages.repository.ts';
import { PasskeysRepository } from './features/passkeys/passkeys.repository.ts';
import { PasskeysService } from './features/passkeys/passkeys.service.ts';
import { PagesService } from './features/pages/pages.service.ts';
import { GameTokens } from './features/games/game-tokens.ts';
import { GamesRepository } from './features/games/games.repository.ts';
import { GamesService } from './features/games/games.service.ts';
import { RecordsRepository } from './features/games/records.repository.ts';
import { RecordsService } from './features/games/records.service.ts';
import { PaymentsRepository } from './features/payments/payments.repository.ts';
import { PaymentsService, type WebhookFaults } from './features/payments/payments.service.ts';
import { SocialRepository } from './features/social/social.repository.ts';
import { SocialService } from './features/social/social.service.ts';
import { RedirectsRepository } from './features/redirects/redirects.repository.ts';
import { RedirectsService } from './features/redirects/redirects.service.ts';
import { AuditLogRepository } from './features/console/audit-log.repository.ts';
import { AuditLogService } from './features/console/audit-log.service.ts';
import { OperatorsRepository } from './features/console/operators.repository.ts';
import { OperatorsService } from './features/console/operators.service.ts';
import { ConsoleMembersRepository } from './features/console/console-members.repository.ts';
import { ConsoleOpsService } from './features/console/console-ops.service.ts';
import { AcquisitionRepository } from './features/tracking/acquisition.repository.ts';
import { AcquisitionService } from './features/tracking/acquisition.service.ts';
import { ConsoleContentRepository } from './features/console/console-content.repository.ts';
import { ConsoleContentService } from './features/console/console-content.service.ts';
import { ConsoleGamesRepository } from './features/console/console-games.repository.ts';
import { ConsoleGamesService } from './features/console/console-games.service.ts';
import { DevelopersRepository } from './features/studio/developers.repository.ts';
import { DevelopersService } from './features/studio/developers.service.ts';
import { GameSecretsRepository } from './features/game-secrets/game-secrets.repository.ts';
import { GameSecretsService } from './features/game-secrets/game-secrets.service.ts';
import { HttpWebhookSender } from './adapters/webhooks/http-webhook-sender.ts';
import { WebhooksRepository } from './features/webhooks/webhooks.repository.ts';
import { WebhooksService } from './features/webhooks/webhooks.service.ts';
import { LedgerRepository } from './features/earnings/ledger.repository.ts';
import { LedgerService } from './features/earnings/ledger.service.ts';
import { ReconciliationRepository } from './features/earnings/reconciliation.repository.ts';
import { ReconciliationService } from './features/earnings/reconciliation.service.ts';
import { RevenueTermsService } from './features/earnings/revenue-terms.service.ts';
import { PayoutsRepository } from './features/earnings/payouts.repository.ts';
import { PayoutsService } from './features/earnings/payouts.service.ts';
import { EarningsService } from './features/earnings/earnings.service.ts';
import { StatementsRepository } from './features/earnings/statements.repository.ts';
import { MailRepository } from './features/mail/mail.repository.ts';
import { MailService } from './features/mail/mail.service.ts';
import { StudioGamesRepository } from './features/studio/studio-games.repository.ts';
import { GameListingsRepository } from './features/catalogue/game-listings.repository.ts';
import { GameListingsService } from './features/catalogue/game-listings.service.ts';
import { StudioGamesService } from './features/studio/studio-games.service.ts';
import { GameChangesRepository } from './features/studio/game-changes.repository.ts';
import { GameChangesService } from './features/studio/game-changes.service.ts';
import { studioGameSchemas } from './features/studio/studio.schema.ts';
import { AppFile } from './features/catalogue/catalogue.import.ts';
import { searchTokens } from './features/catalogue/catalogue-search.ts';
import { HOSTED_SLUG_PATTERN } from './features/catalogue/hosted-game-limits.ts';
import { BuildsRepository } from './features/studio/builds.repository.ts';
import { BuildsService } from './features/studio/builds.service.ts';
import { BuildUploadsRepository } from './features/studio/build-uploads.repository.ts';
import { BuildUploadsService } from './features/studio/build-uploads.service.ts';
import { BUILD_RATIO } from './features/studio/build-archive.ts';
import { HOSTED_GAME_LIMITS } from './features/catalogue/hosted-game-limits.ts';
import { HOSTED_GAME_SANDBOX } from './features/games/games-origin.ts';
import { StudioStatsRepository } from './features/studio/studio-stats.repository.ts';
import { StudioStatsService } from './features/studio/studio-stats.service.ts';
import { StudioKeysRepository } from './features/studio/studio-keys.repository.ts';
import { StudioKeysService } from './features/studio/studio-keys.service.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { createOutsideSystems } from './services/outside-systems.ts';
import type { IncomingUploads } from './adapters/storage/incoming-uploads.ts';
import type { RateLimiter } from './adapters/rate-limits/rate-limiter.ts';

/** Everything the API and the page loaders call, built once at start-up. */
export interface Services {
  database: DatabaseHandle;
  clock: Clock;
  tokens: AccessTokensService;
  /** What members and imports upload (avatars, article media), served at /uploads/. */
  uploads: FileStorage;
  /** Sign-in, sign-out, user info (`userInfoForToken` for page loaders) and profile fields. */
  accounts: AccountsService;
  /** The guest merge every sign-in that reaches an existing account runs (decision 063). */
  guestMerge: GuestMergeService;
  passkeys: PasskeysService;
  social: SocialService;
  /** The game bridge: game sign-in tokens and cloud saves. */
  games: GamesService;
  /** Leaderboards and achievements of games (decision 092). */
  records: RecordsService;
  /** The operator role (decision 095): who may use the Console. */
  operators: OperatorsService;
  /** What operators did, append-only (decision 095). */
  auditLog: AuditLogService;
  /** The developer role (decision 095): studio profiles and who owns which game. */
  developers: DevelopersService;
  /** A developer's studio profile and games' metadata (decision 096). */
  studioGames: StudioGamesService;
  gameChanges: GameChangesService;
  /** Developers' game builds: upload, preview, review, release, rollback (decision 097). */
  builds: BuildsService;
  /** Unfinished build uploads: per-studio limits and their expiry (decision 109). */
  buildUploads: BuildUploadsService;
  /** Unfinished build uploads' store (decision 150: a folder, or the bucket every instance shares). */
  incomingUploads: IncomingUploads;
  /** Where builds' files are kept: a folder of its own, never served on the portal (decision 097). */
  buildFiles: FileStorage;
  /** The Console's orders, members, acquisition report and audit log (decision 098). */
  consoleOps: ConsoleOpsService;
  /** Operators unpublish and feature games (decision 099). */
  consoleGames: ConsoleGamesService;
  /** Operators write articles and static pages in the browser (decision 099). */
  consoleContent: ConsoleContentService;
  /** A developer's statistics of their games (decision 101). */
  studioStats: StudioStatsService;
  /** Developers' keys for build pipelines (decision 102). */
  studioKeys: StudioKeysService;
  /** Orders of in-game items, their checkout and the provider's notifications. */
  payments: PaymentsService;
  /** Games' own backend and webhook secrets, sealed under APP_SECRET (decision 110). */
  gameSecrets: GameSecretsService;
  /** Games' webhooks: the outbox of paid, refunded and consumed events and its worker (decision 100). */
  webhooks: WebhooksService;
  /** Studios' earnings: the ledger every money change posts to (decision 149). */
  ledger: LedgerService;
  /** Studios' revenue terms in the Console (decision 149). */
  revenueTerms: RevenueTermsService;
  /** The provider's transaction report compared with the ledger (decision 149). */
  reconciliation: ReconciliationService;
  /** Studios' payouts: details, monthly proposals, the Console's approval, sending and results (decision 149). */
  payouts: PayoutsService;
  /** Studios' balances and monthly statements, closed by a periodic round (decision 149). */
  earnings: EarningsService;
  /** Outgoing mail: the outbox and its sender (decision 141). */
  mail: MailService;
  /** Play statistics of games (decision 093). */
  gameSessions: GameSessionsService;
  /** "Download my data": members' archives of their data (decision 144). */
  memberData: MemberDataService;
  /** Account deletion (decision 147): closing, restoring by a sign-in, erasing after 30 days. */
  accountDeletion: AccountDeletionService;
  /** Two-step sign-in with an authenticator app (decision 145). */
  twoFactor: TwoFactorService;
  /** The Conversions API sender when configured (its logger is set by the app), else null. */
  conversionsApi: MetaConversionsApi | null;
  /** The keyed ids Meta receives, when a pixel is configured (decision 065), else null. */
  advertisingIds: AdvertisingIdsService | null;
  /** The development WhatsApp sender's inbox, when that sender is configured (never in production). */
  whatsappInbox: DevelopmentInbox | null;
  /** Counters shared by all instances: the database's, or Redis when REDIS_URL is set. */
  rateLimiter: RateLimiter;
  /** Announces imports to every instance (Redis pub/sub when REDIS_URL is set); caches listen to it. */
  contentChanges: ContentChanges;
  catalogue: CatalogueService;
  catalogueImport: CatalogueImportRepository;
  /** A member's played games and favourites. */
  library: MemberLibraryService;
  articles: ArticlesService;
  /** Where the article import writes: the database, and the images into the uploads folder. */
  articlesImport: ArticleImportTarget;
  sitemap: SitemapService;
  pages: PagesService;
  pagesImport: PagesRepository;
  redirects: RedirectsService;
  redirectsImport: RedirectsRepository;
}

/** Tests only (FAULT_INJECTION): the process dies where a power cut would (no clean-up, no answer). */
function crashNow(): void {
  process.kill(process.pid, 'SIGKILL');
}

/** Where FAULT_INJECTION stops the process while a notification is handled. */
function webhookFaults(fault: Config['faultInjection']): WebhookFaults {
  if (fault === 'webhook-before-commit') return { beforeCommit: crashNow };
  if (fault === 'webhook-after-commit') return { afterCommit: crashNow };
  return {};
}

export function createServices(database: DatabaseHandle, config: Config, clock: Clock = systemClock): Services {
  const { db } = database;
  const articles = new ArticlesService(new ArticlesRepository(db), clock);
  const pagesRepository = new PagesRepository(db);
  const pages = new PagesService(pagesRepository, clock);
  const redirectsRepository = new RedirectsRepository(db);
  const tokens = new AccessTokensService(new AccessTokensRepository(db), clock, { maxAgeDays: config.sessionMaxAgeDays });
  const {
    uploads,
    buildFiles,
    memberExports,
    incomingUploads,
    rateLimiter,
    contentChanges,
    paymentsProvider,
    whatsappInbox,
    whatsapp,
    identityProviders,
    conversionsApi,
    mailTransport,
    payoutProvider,
  } = createOutsideSystems(database, config, clock);
  // Without the Conversions API the services get none (and skip the work of preparing events).
  const advertisingIds = config.pixel ? new AdvertisingIdsService(config.appSecret) : null;
  const conversions = conversionsApi && advertisingIds ? new ConversionsService(conversionsApi, advertisingIds) : undefined;
  // The features whose tables the merge writes need accounts, which needs the merge: their steps join once they are built.
  const guestMergeSteps: GuestMergeStep[] = [];
  const guestMerge = new GuestMergeService(new GuestMergeRepository(db), guestMergeSteps);
  const signInFailures = new SignInFailuresService(new SignInFailuresRepository(db), clock);
  const previousSecrets = config.appSecretPrevious ? [config.appSecretPrevious] : [];
  const mail = new MailService({ repository: new MailRepository(db), transport: mailTransport, clock });
  const avatars = new AvatarsService(uploads);
  const twoFactor = new TwoFactorService({
    repository: new TwoFactorRepository(db),
    // Accounts is built next; these run on requests, once it is.
    accounts: {
      memberName: (userId) => accounts.memberName(userId),
      confirmIdentity: (caller, password) => accounts.confirmIdentity(caller, password),
      noticeChange: (userId, what) => accounts.notices.changed(userId, what, null),
    },
    limiter: rateLimiter,
    clock,
    appSecret: config.appSecret,
    previousSecrets,
    productName: config.productName,
  });
  const accounts = new AccountsService({
    users: new UsersRepository(db),
    tokens,
    guestMerge,
    hasher: new Argon2PasswordHasher(),
    passwordPolicy: new ZxcvbnPasswordPolicy([config.productName]),
    challenges: new GuestChallenges({ secret: config.appSecret, limiter: rateLimiter, clock }),
    limiter: rateLimiter,
    avatars,
    clock,
    appSecret: config.appSecret,
    conversions,
    signInFailures,
    secondFactor: twoFactor,
    recovery: { repository: new AccountRecoveryRepository(db), mail, publicOrigin: config.publicOrigin },
  });
  const developers = new DevelopersService(new DevelopersRepository(db), clock);
  const catalogue = new CatalogueService(new CatalogueRepository(db, database.kind), {
    portalOrigin: config.publicOrigin,
    gamesOrigin: config.games.origin,
    clock,
    studioNameOf: async (userId) => (await developers.profile(userId))?.studioName ?? null,
  });
  const redirects = new RedirectsService(redirectsRepository, clock);
  const operators = new OperatorsService(new OperatorsRepository(db), clock);
  const auditLog = new AuditLogService(new AuditLogRepository(db), clock);
  const gameSecrets = new GameSecretsService({ repository: new GameSecretsRepository(db), clock, appSecret: config.appSecret, previousSecrets });
  const listings = new GameListingsService(new GameListingsRepository(db));
  const builds = new BuildsService({
    repository: new BuildsRepository(db),
    storage: buildFiles,
    developers,
    operators,
    auditLog,
    // Built below: the records check previews with the builds; a release reaches them when it runs.
    listings,
    records: { clearGame: (appId, unit) => records.clearGame(appId, unit) },
    clock,
    appSecret: config.appSecret,
    previousSecrets,
    portalOrigin: config.publicOrigin,
    previewsOrigin: config.previewsOrigin,
    changed: () => contentChanges.announce(),
    limits: { ...HOSTED_GAME_LIMITS, ratio: BUILD_RATIO },
    sandbox: HOSTED_GAME_SANDBOX,
  });
  const studioGamesRepository = new StudioGamesRepository(db);
  const gameChanges = new GameChangesService({
    listings,
    repository: new GameChangesRepository(db, database.kind),
    games: studioGamesRepository,
    developers,
    operators,
    auditLog,
    clock,
    searchTokens: (texts, tagTitles) => searchTokens(texts.title, texts.summary, texts.description, ...tagTitles),
    announce: () => contentChanges.announce(),
  });
  const webhooks = new WebhooksService({
    repository: new WebhooksRepository(db, database.kind),
    sender: new HttpWebhookSender({ allowPrivate: config.webhooksAllowPrivateTargets }),
    clock,
    secrets: gameSecrets,
    allowPrivateTargets: config.webhooksAllowPrivateTargets,
    developers,
  });
  const ledgerRepository = new LedgerRepository(db);
  const ledger = new LedgerService({ repository: ledgerRepository, config: config.earnings, clock });
  const payouts = new PayoutsService({
    repository: new PayoutsRepository(db),
    ledger: ledgerRepository,
    provider: payoutProvider,
    operators,
    developers,
    auditLog,
    clock,
    appSecret: config.appSecret,
    previousSecrets,
    minimumMajor: config.payouts.minimumMajor,
  });
  const earnings = new EarningsService({
    repository: new StatementsRepository(db),
    ledger: ledgerRepository,
    config: config.earnings,
    clock,
    studio: developers,
  });
  const payments = new PaymentsService({
    repository: new PaymentsRepository(db, database.kind),
    accounts,
    clock,
    provider: paymentsProvider,
    // With payments off the webhook still answers in Xsolla's format, refusing every notification as unsigned.
    notifications: paymentsProvider ?? new XsollaNotifications(null),
    sandboxCards: paymentsProvider instanceof SandboxPayments ? paymentsProvider : null,
    faults: webhookFaults(config.faultInjection),
    conversions,
    webhooks,
    ledger,
    preview: builds,
  });
  const social = new SocialService({
    repository: new SocialRepository(db),
    accounts,
    tokens,
    guestMerge,
    limiter: rateLimiter,
    clock,
    providers: identityProviders,
    whatsapp,
    secret: config.appSecret,
    newNickname: guestNickname,
    conversions,
    signInFailures,
  });
  const games = new GamesService({
    repository: new GamesRepository(db),
    tokens: new GameTokens(config.appSecret, config.publicOrigin, previousSecrets),
    accounts,
    clock,
    preview: builds,
  });
  const records = new RecordsService({
    repository: new RecordsRepository(db),
    limiter: rateLimiter,
    clock,
    secrets: gameSecrets,
    preview: builds,
    players: payments,
  });
  const library = new MemberLibraryService(new MemberLibraryRepository(db), clock);
  // In the order the merge takes the member's rows (decision 137): plays and favourites, saves, orders and holdings, scores and achievements.
  guestMergeSteps.push(library, games, payments, records);
  const passkeys = new PasskeysService({
    repository: new PasskeysRepository(db),
    accounts,
    tokens,
    guestMerge,
    limiter: rateLimiter,
    clock,
    relyingParty: config.webauthn,
    conversions,
    signInFailures,
  });
  const gameSessions = new GameSessionsService({ repository: new GameSessionsRepository(db), limiter: rateLimiter, clock });
  // Every feature whose tables hold personal data (docs/architecture.md, "Tables and their owners"), in the archive's order.
  const memberData = new MemberDataService({
    repository: new DataExportsRepository(db),
    sources: [accounts, accounts.recovery, tokens, passkeys, social, twoFactor, signInFailures, library, games, records, payments, gameSessions, developers],
    storage: memberExports,
    clock,
    appSecret: config.appSecret,
    productName: config.productName,
  });
  // Every feature whose tables hold personal data, as for the archive; the webhooks first, while the rows that say which games knew the player are there.
  const accountDeletion = new AccountDeletionService({
    users: new UsersRepository(db),
    profile: accounts,
    avatars,
    steps: [webhooks, accounts.recovery, passkeys, social, twoFactor, memberData, library, games, records, payments, ledger, operators, developers, mail],
    liveGames: (userId) => developers.liveGames(userId),
    record: (unit, entry) =>
      auditLog.record({ operatorUserId: entry.actorId, action: entry.action, target: { type: 'member', id: entry.memberId }, detail: entry.detail }, unit),
    clock,
  });
  contentChanges.onChange(() => {
    catalogue.invalidate();
    articles.invalidate();
    redirects.invalidate();
  });
  return {
    database,
    clock,
    tokens,
    uploads,
    accounts,
    guestMerge,
    social,
    conversionsApi,
    advertisingIds,
    whatsappInbox,
    games,
    studioGames: new StudioGamesService({
      listings,
      repository: studioGamesRepository,
      developers,
      uploads,
      clock,
      limiter: rateLimiter,
      // The Studio validates with the content import's own fields (decision 096).
      schemas: studioGameSchemas({ entry: AppFile, hostedSlug: HOSTED_SLUG_PATTERN }),
      searchTokens,
      changes: gameChanges,
    }),
    gameChanges,
    operators,
    auditLog,
    developers,
    buildFiles,
    builds,
    incomingUploads,
    buildUploads: new BuildUploadsService({
      repository: new BuildUploadsRepository(db),
      clock,
      incoming: incomingUploads,
      limits: {
        openPerStudio: config.buildUploads.openPerStudio,
        bytesPerStudioPerDay: config.buildUploads.mbPerStudioPerDay * 1024 * 1024,
        expiryMs: config.buildUploads.expiryHours * 60 * 60 * 1000,
      },
    }),
    consoleGames: new ConsoleGamesService({ repository: new ConsoleGamesRepository(db), listings, operators, auditLog, changes: contentChanges, clock }),
    consoleContent: new ConsoleContentService({
      repository: new ConsoleContentRepository(db),
      articles,
      pages,
      operators,
      auditLog,
      changes: contentChanges,
      media: new StoredMediaStore(uploads),
      clock,
    }),
    studioStats: new StudioStatsService({ repository: new StudioStatsRepository(db), developers, clock }),
    studioKeys: new StudioKeysService(new StudioKeysRepository(db), developers, clock),
    records,
    gameSessions,
    memberData,
    accountDeletion,
    twoFactor,
    webhooks,
    ledger,
    revenueTerms: new RevenueTermsService({ ledger, operators, developers, auditLog, clock }),
    reconciliation: new ReconciliationService({ repository: new ReconciliationRepository(db), operators }),
    payouts,
    earnings,
    mail,
    gameSecrets,
    consoleOps: new ConsoleOpsService({
      operators,
      auditLog,
      payments,
      accounts,
      social,
      signInFailures,
      acquisition: new AcquisitionService(new AcquisitionRepository(db)),
      members: new ConsoleMembersRepository(db),
      reviews: { builds, changes: gameChanges },
      memberData,
      twoFactor,
      accountDeletion,
      clock,
    }),
    payments,
    passkeys,
    rateLimiter,
    contentChanges,
    catalogue,
    catalogueImport: new CatalogueImportRepository(db, clock),
    library,
    articles,
    articlesImport: {
      repository: new ArticlesImportRepository(db, clock),
      media: new StoredMediaStore(uploads),
    },
    sitemap: new SitemapService(new SitemapRepository(db), articles, pages),
    pages,
    pagesImport: pagesRepository,
    redirects,
    redirectsImport: redirectsRepository,
  };
}
