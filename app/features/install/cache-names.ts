/** The service worker's runtime caches (decision 065), shared by the worker and the page. */
export const CACHE_NAMES = {
  pages: 'pages',
  pageData: 'page-data',
  messages: 'messages',
  games: 'games',
  images: 'images',
} as const;

/** The caches that hold what one visitor saw (their pages render their nickname and library). */
export const PERSONAL_CACHES = [CACHE_NAMES.pages, CACHE_NAMES.pageData];
