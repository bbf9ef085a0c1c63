import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

/*
 * The addresses a webhook may be sent to (decisions 100 and 110). The portal posts to a URL a developer chose,
 * from inside its own network: without a rule it could be made to call its database, a cloud
 * metadata service (169.254.169.254) or an admin page on the LAN (server-side request forgery).
 * So, outside development, a webhook URL is https and every address its host has must be in the
 * public unicast ranges below: an allow-list, because a list of what to refuse misses the many
 * IPv6 spellings of an inward address (`::127.0.0.1`, `::ffff:0:127.0.0.1`, NAT64, 6to4). The
 * rule is applied when the URL is saved and again before every delivery (the connection uses the
 * address checked, so a DNS answer that changes between the check and the call cannot point it
 * inward), and redirects are not followed. In development and tests (APP_ENV other than
 * production, the server on loopback) http to loopback and https to private addresses are allowed,
 * so a developer's backend on the same machine receives them.
 */

/** An IPv4 address as a number, or null. */
function ipv4Value(address: string): number | null {
  if (isIP(address) !== 4) return null;
  return address.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
}

const v4 = (network: string, bits: number) => ({ start: ipv4Value(network)!, size: 2 ** (32 - bits) });
/** Unicast IPv4 space: 1.0.0.0 to 223.255.255.255 (0/8 is "this network", 224/4 multicast, 240/4 reserved). */
const IPV4_UNICAST = { start: ipv4Value('1.0.0.0')!, end: ipv4Value('224.0.0.0')! };
/** Blocks of the unicast space that are not globally reachable (IANA special-purpose registry). */
const IPV4_NOT_GLOBAL = [
  v4('10.0.0.0', 8),
  v4('100.64.0.0', 10),
  v4('127.0.0.0', 8),
  v4('169.254.0.0', 16),
  v4('172.16.0.0', 12),
  v4('192.0.0.0', 24),
  v4('192.0.2.0', 24),
  v4('192.88.99.0', 24),
  v4('192.168.0.0', 16),
  v4('198.18.0.0', 15),
  v4('198.51.100.0', 24),
  v4('203.0.113.0', 24),
];

/** The eight 16-bit groups of an IPv6 address (`::` expanded, an embedded dotted IPv4 tail converted), or null. */
function ipv6Groups(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.toLowerCase();
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const value = ipv4Value(tail[1]!)!;
    text = `${text.slice(0, -tail[1]!.length)}${Math.floor(value / 65536).toString(16)}:${(value % 65536).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const middle = rest === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => '0');
  return [...left, ...middle, ...right].map((group) => Number.parseInt(group || '0', 16));
}

/** Whether the first `bits` bits of `groups` are those of `prefix` (groups too). */
function inPrefix(groups: number[], prefix: number[], bits: number): boolean {
  for (let index = 0; index * 16 < bits; index++) {
    const keep = Math.min(16, bits - index * 16);
    const mask = (0xffff << (16 - keep)) & 0xffff;
    if ((groups[index]! & mask) !== ((prefix[index] ?? 0) & mask)) return false;
  }
  return true;
}

const v6 = (network: string, bits: number) => ({ prefix: ipv6Groups(network)!, bits });
/** Global unicast IPv6 is 2000::/3; everything else (::/96 IPv4-compatible, ::ffff:0:0/96 translated, 64:ff9b::/96 NAT64, fc00::/7, fe80::/10, ff00::/8…) is not public. */
const IPV6_GLOBAL_UNICAST = v6('2000::', 3);
/** Blocks of 2000::/3 that are not globally reachable, or that carry another address (Teredo, 6to4). */
const IPV6_NOT_GLOBAL = [v6('2001::', 23), v6('2001:db8::', 32), v6('2002::', 16), v6('3fff::', 20)];

/** Whether an address is in the public unicast ranges (IPv4, or IPv6 global unicast; an IPv4-mapped address counts as its IPv4 address). */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  // A zone (fe80::1%eth0) names a link: never public.
  if (bare.includes('%')) return false;
  const value = ipv4Value(bare);
  if (value !== null) {
    if (value < IPV4_UNICAST.start || value >= IPV4_UNICAST.end) return false;
    return !IPV4_NOT_GLOBAL.some((block) => value >= block.start && value < block.start + block.size);
  }
  const groups = ipv6Groups(bare);
  if (!groups) return false;
  // ::ffff:a.b.c.d is how a dual-stack socket writes an IPv4 peer: judged as that IPv4 address.
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return isPublicAddress(`${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`);
  }
  if (!inPrefix(groups, IPV6_GLOBAL_UNICAST.prefix, IPV6_GLOBAL_UNICAST.bits)) return false;
  return !IPV6_NOT_GLOBAL.some((block) => inPrefix(groups, block.prefix, block.bits));
}

/** Whether a host name is this machine: localhost, 127.0.0.0/8 or ::1. */
export function isLoopbackName(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost') || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/** The error of a refused address: the sender reports it as a refusal, not as a network failure. */
export const REFUSED_ADDRESS = 'EWEBHOOKADDRESS';

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
          code: REFUSED_ADDRESS,
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
