/** Business constants of spec section 9, shared by browser and server. */
export const API_BASE = '/serve/api';
export const COOKIE_MAX_AGE_DAYS = 365;
export const TOKEN_COOKIE = 'token';
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
/** The header a build's preview page sends with the game bridge's calls: the preview label (decision 097). */
export const PREVIEW_HEADER = 'playport-preview';
export const UTM_FIELDS = ['source', 'medium', 'campaign', 'term', 'content'] as const;
export const RETRY_ATTEMPTS = 3;
export const RETRY_DELAY_MS = 1000;
/** A Retry-After longer than this (seconds) is not waited for: the call fails with the server's message. */
export const RETRY_AFTER_MAX_SECONDS = 5;
export const TOKEN_MIN_URL_LENGTH = 50;
export const SLUG_PATTERN = /^[A-Za-z0-9_-]+$/;
export const ARTICLE_SEGMENT_PATTERN = /^[A-Za-z]{3,20}$/;
export const DIGITS_PATTERN = /^\d+$/;

/** The visitor's choice about advertising measurement ('accepted' or 'declined'), kept 365 days (decision 065). */
export const AD_CONSENT_COOKIE = 'ad_consent';

/**
 * What a device fingerprint looks like: FingerprintJS visitor ids are 32 hex characters, other
 * libraries' ids fit too. Here, not in the schemas, so the browser's session code needs no zod.
 */
export const FINGERPRINT_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * What a device id looks like: the random value (base64url, 32 bytes in this site's browser code)
 * a browser makes once and keeps in localStorage; device sign-in needs it with the fingerprint (decision 081).
 */
export const DEVICE_ID_PATTERN = /^[A-Za-z0-9_-]{22,128}$/;

/** Articles a list page shows at once; "load more" asks for the same number again. */
export const ARTICLE_PAGE_SIZE = 6;
/**
 * Covers use the Open Graph image shape; the importer checks the ratio, so pages can reserve the
 * space. Here, not in the schemas, so article pages load no zod.
 */
export const COVER_WIDTH = 1200;
export const COVER_HEIGHT = 630;
/**
 * The browser's bar colour per colour scheme. A manifest holds one `theme_color`: it takes the
 * light one, the default scheme; pages name both with media-bound theme-color metas.
 */
export const THEME_COLOR = { light: '#ffffff', dark: '#18181B' } as const;

/**
 * The sandbox of a hosted game's frame and document (decisions 089 and 108): its own origin
 * (storage, workers, its files), mouse-look, and the Storage Access API from a player's gesture,
 * the one way a third-party frame asks for its storage where the browser blocks it. The play
 * page's frame and the games origin's CSP give exactly this.
 */
export const HOSTED_GAME_SANDBOX = 'allow-scripts allow-same-origin allow-pointer-lock allow-storage-access-by-user-activation';
