import { describe, expect, it } from 'vitest';
import { clientSubject, networkOf } from './network.ts';

describe('networkOf', () => {
  it.each([
    ['192.0.2.77', 24, '192.0.2.0/24'],
    ['192.0.2.77', 32, '192.0.2.77/32'],
    ['203.0.113.255', 16, '203.0.0.0/16'],
    ['::ffff:192.0.2.77', 24, '192.0.2.0/24'],
  ])('IPv4 %s /%i is %s', (address, bits, expected) => {
    expect(networkOf(address, bits, 48)).toBe(expected);
  });

  it.each([
    ['2001:db8:1:2:3:4:5:6', 48, '2001:db8:1::/48'],
    ['2001:db8:1:2:3:4:5:6', 64, '2001:db8:1:2::/64'],
    ['2001:db8::1', 64, '2001:db8:0:0::/64'],
    ['2001:0db8:00ff:ab12::1', 40, '2001:db8:0::/40'],
    ['::1', 64, '0:0:0:0::/64'],
  ])('IPv6 %s /%i is %s', (address, bits, expected) => {
    expect(networkOf(address, 24, bits)).toBe(expected);
  });

  it('two addresses of one subscriber share a subject; their neighbours do not', () => {
    expect(clientSubject('2001:db8:1:2::a')).toBe(clientSubject('2001:db8:1:2:ffff::b'));
    expect(clientSubject('2001:db8:1:3::a')).not.toBe(clientSubject('2001:db8:1:2::a'));
    expect(clientSubject('192.0.2.1')).not.toBe(clientSubject('192.0.2.2'));
  });

  it('returns anything that is not an address as it is', () => {
    expect(networkOf('unknown', 24, 48)).toBe('unknown');
  });
});
