import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/*
 * Where a webhook may be sent (decision 100). The portal posts to a URL a developer chose, from
 * inside its own network: without a rule it could be made to call its database, a cloud metadata
 * service (169.254.169.254) or an admin page on the LAN (server-side request forgery). So, outside
 * development, a webhook URL is https and its host must resolve only to public addresses; the
 * address is checked again when each delivery connects (the connection uses the checked address,
 * so a DNS answer that changes between the check and the call cannot point it inward), and
 * redirects are not followed. In development and tests (APP_ENV other than production, the server
 * on loopback) http and https to loopback and private addresses are allowed, so a developer's
 * backend on the same machine receives them.
 */

// Two lists: Node matches IPv4 addresses against IPv6 rules too (as ::ffff:a.b.c.d).
const NOT_PUBLIC_V4 = new BlockList();
const NOT_PUBLIC_V6 = new BlockList();
for (const [network, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_PUBLIC_V4.addSubnet(network, bits, 'ipv4');
for (const [network, bits] of [
  ['::', 127],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC_V6.addSubnet(network, bits, 'ipv6');

/** Whether an address is on the public internet: not loopback, private, link-local, shared, multicast, documentation or reserved. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, '$1').split('%')[0]!;
  const family = isIP(bare);
  if (family === 4) return !NOT_PUBLIC_V4.check(bare, 'ipv4');
  if (family !== 6) return false;
  // An IPv4-mapped address is the IPv4 address it carries, in whichever form it is written.
  const normal = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(normal);
  if (mapped) {
    const [high, low] = [Number.parseInt(mapped[1]!, 16), Number.parseInt(mapped[2]!, 16)];
    return isPublicAddress(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
  }
  return !NOT_PUBLIC_V6.check(bare, 'ipv6');
}

/** Whether a host name is this machine: localhost, 127.0.0.0/8 or ::1. */
export function isLoopbackName(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost') || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

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

/**
 * A DNS lookup for the webhook's connection that refuses a host resolving to any address that is
 * not public (unless private targets are allowed): the socket then connects to the address checked.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as unknown as { address: string; family: number }[];
      const refused = allowPrivate ? undefined : list.find((entry) => !isPublicAddress(entry.address));
      if (refused || list.length === 0) {
        const problem = Object.assign(new Error(`${hostname} resolves to ${refused?.address ?? 'no address'}, which is not a public address`), {
          code: 'EWEBHOOKADDRESS',
        });
        return callback(problem, '', 0);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

/** Whether a host name resolves only to public addresses (checked when the URL is saved). */
export async function resolvesPublicly(hostname: string): Promise<boolean> {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare)) return isPublicAddress(bare);
  return new Promise((resolvePromise) => {
    guardedLookup(false)(bare, { all: true }, (error) => resolvePromise(!error));
  });
}
