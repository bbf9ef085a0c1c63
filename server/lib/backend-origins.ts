import { isIP } from 'node:net';
import { isLoopbackHost } from '../config.ts';

/**
 * A backend origin as the games origin's Content-Security-Policy may name it (decision 107):
 * scheme, host and port and nothing else. WHATWG URL keeps `;`, `,`, `'` and `*` in a host, and
 * any of them in a policy would end a source list or widen it, so the value is taken apart by a
 * strict pattern first, its host must be a DNS name or an IP literal, and the origin is rebuilt
 * from the parsed URL.
 */
const ORIGIN_SHAPE = /^(https|wss|http|ws):\/\/[^/?#@\\\s]+\/?$/i;
const DNS_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

function isDnsName(host: string): boolean {
  return host.length <= 253 && host.split('.').every((label) => DNS_LABEL.test(label));
}

function isIpLiteral(host: string): boolean {
  if (host.startsWith('[') && host.endsWith(']')) return isIP(host.slice(1, -1)) === 6;
  return isIP(host) === 4;
}

/**
 * The origin a studio's backend value names (`https://api.example.com`, a trailing `/` allowed),
 * rebuilt from the parsed URL; null for anything else. https and wss anywhere, http and ws only
 * on loopback (a studio's backend on its own machine in development).
 */
export function backendOriginOf(value: string): string | null {
  if (!ORIGIN_SHAPE.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return null;
  if (!isDnsName(url.hostname) && !isIpLiteral(url.hostname)) return null;
  const secure = url.protocol === 'https:' || url.protocol === 'wss:';
  const local = (url.protocol === 'http:' || url.protocol === 'ws:') && isLoopbackHost(url.hostname);
  if (!secure && !local) return null;
  return `${url.protocol}//${url.host}`;
}

/** The origins among stored values that still parse as clean ones, each once: anything else is left out. */
export function cleanBackendOrigins(values: readonly unknown[]): string[] {
  const origins = values.map((value) => (typeof value === 'string' ? backendOriginOf(value) : null)).filter((origin) => origin !== null);
  return [...new Set(origins)];
}
