import { isIP } from 'node:net';

/** The eight 16-bit groups of an IPv6 address (`::` expanded, an embedded IPv4 tail converted). */
function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0]!.toLowerCase();
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -tail[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const middle = rest === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => '0');
  return [...left, ...middle, ...right].map((group) => Number.parseInt(group || '0', 16));
}

/**
 * The network an address belongs to, as text: IPv4 addresses by their first `v4Bits` bits,
 * IPv6 ones by their first `v6Bits` (`192.0.2.0/24`, `2001:db8:1::/48`). IPv4-mapped IPv6
 * addresses count as IPv4. Anything else is returned as it is.
 *
 * One IPv6 subscriber usually holds a whole /64 (or /48), so limits and network checks that
 * went by single IPv6 addresses would be trivially dodged.
 */
export function networkOf(address: string, v4Bits: number, v6Bits: number): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const plain = mapped ? mapped[1]! : address;
  const family = isIP(plain);
  if (family === 4) {
    const value = plain.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
    const masked = v4Bits === 0 ? 0 : Math.floor(value / 2 ** (32 - v4Bits)) * 2 ** (32 - v4Bits);
    const octets = [24, 16, 8, 0].map((shift) => Math.floor(masked / 2 ** shift) % 256);
    return `${octets.join('.')}/${v4Bits}`;
  }
  if (family === 6) {
    const groups = ipv6Groups(plain).map((group, index) => {
      const bitsBefore = index * 16;
      if (bitsBefore >= v6Bits) return 0;
      const keep = Math.min(16, v6Bits - bitsBefore);
      return group & (0xffff << (16 - keep)) & 0xffff;
    });
    const kept = Math.ceil(v6Bits / 16);
    return `${groups
      .slice(0, kept)
      .map((g) => g.toString(16))
      .join(':')}::/${v6Bits}`;
  }
  return address;
}

/** Where a client is, for limits: its own IPv4 address, or its IPv6 /64 (one subscriber). */
export function clientSubject(address: string): string {
  return networkOf(address, 32, 64);
}
