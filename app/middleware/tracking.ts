import type { DataStrategyResult, MiddlewareFunction } from 'react-router';
import { pixelPageView } from '../features/tracking/pixel.ts';

/**
 * The named tracking middleware (spec section 2) of the home, app and play pages: after a client
 * navigation to one of them, the pixel (when it runs) records the page view. The campaign tags of
 * the address are captured for every page by the global campaign-tags middleware.
 */
export const trackPageView: MiddlewareFunction<Record<string, DataStrategyResult>> = async (_args, next) => {
  const results = await next();
  pixelPageView();
  return results;
};
