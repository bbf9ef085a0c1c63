/** The service worker's runtime caches (decision 065), shared by the worker and the page. */
export const CACHE_NAMES = {
  pages: 'pages',
  pageData: 'page-data',
  messages: 'messages',
  games: 'games',
  images: 'images',
  /** My area's game lists (recently played, favourites), for the offline page's link to My area (decision 117). */
  library: 'library',
} as const;

/** The caches that hold what one visitor saw (their pages render their nickname and library). */
export const PERSONAL_CACHES = [CACHE_NAMES.pages, CACHE_NAMES.pageData, CACHE_NAMES.library];
