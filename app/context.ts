import { createContext } from 'react-router';
import type { AppLoadContext } from '#server/page-context.ts';

export type { AppLoadContext };

/** The key loaders read their context under; server/app.ts finds it on the build's entry module. */
export const appContext = createContext<AppLoadContext>();
