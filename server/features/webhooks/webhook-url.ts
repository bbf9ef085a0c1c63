import { isIP } from 'node:net';
import { isLoopbackName, isPublicAddress } from '../../adapters/webhooks/public-address.ts';

// Where a webhook may be sent (decisions 100 and 110): the addresses are judged by the sender's
// adapter (server/adapters/webhooks/public-address.ts); the URL's text is judged here when it is saved.

export type WebhookUrlProblem = 'invalid' | 'scheme' | 'credentials' | 'private_address';

/** What is wrong with a webhook URL by its text alone (the DNS check comes on top), or null. */
export function webhookUrlProblem(value: string, allowPrivate: boolean): WebhookUrlProblem | null {
  if (value.length > 2000 || !URL.canParse(value)) return 'invalid';
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'scheme';
  if (url.username || url.password) return 'credentials';
  if (url.protocol === 'http:' && !(allowPrivate && isLoopbackName(url.hostname))) return 'scheme';
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!allowPrivate && (isLoopbackName(url.hostname) || (isIP(literal) !== 0 && !isPublicAddress(literal)))) return 'private_address';
  return null;
}
