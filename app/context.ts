import { createContext } from 'react-router';
import type { AppLoadContext } from '#server/page-context.ts';

// The one place app/ meets server/ (type-only; check-layers enforces it): the context loaders read.
export type { AppLoadContext };

/** The services page loaders may call. */
export type PageServices = AppLoadContext['services'];

/** The key loaders read their context under; server/app.ts finds it on the build's entry module. */
export const appContext = createContext<AppLoadContext>();
