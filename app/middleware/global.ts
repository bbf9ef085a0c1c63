import type { MiddlewareFunction } from 'react-router';
import { captureCampaignTags } from './campaign-tags.ts';
import { redirectLookup } from './redirect-lookup.ts';
import { sessionRestore } from './session-restore.ts';

/** The global route middleware in the spec's order: session restore, campaign tags, redirect lookup. */
export const globalMiddleware: MiddlewareFunction<Response>[] = [sessionRestore, captureCampaignTags, redirectLookup];
