import { describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../adapters/webhooks/public-address.ts';
import { webhookUrlProblem } from './webhook-url.ts';

// Where a webhook may go (decisions 100 and 110): https to public unicast addresses; loopback and private ones only in development.
describe('webhook URL rule', () => {
  it.each([
    ['93.184.215.14', true],
    ['8.8.8.8', true],
    ['1.0.0.1', true],
    ['223.255.255.254', true],
    ['2606:4700:4700::1111', true],
    ['2a00:1450:4001:82a::200e', true],
    ['::ffff:93.184.215.14', true],
    ['127.0.0.1', false],
    ['127.255.255.254', false],
    ['10.0.0.5', false],
    ['172.16.3.4', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['0.1.2.3', false],
    ['192.0.0.8', false],
    ['192.0.2.1', false],
    ['198.18.0.1', false],
    ['224.0.0.1', false],
    ['239.255.255.250', false],
    ['240.0.0.1', false],
    ['255.255.255.255', false],
    ['::1', false],
    ['::', false],
    // IPv4-compatible (::/96): the forms of issue 35, point 4.
    ['::127.0.0.1', false],
    ['::7f00:1', false],
    ['::8.8.8.8', false],
    // IPv4-translated (::ffff:0:0/96) and IPv4-mapped.
    ['::ffff:0:127.0.0.1', false],
    ['::ffff:0:7f00:1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['::ffff:10.0.0.1', false],
    ['0:0:0:0:0:ffff:a9fe:a9fe', false],
    // NAT64 and 6to4 carry an IPv4 address the gateway would reach.
    ['64:ff9b::a00:1', false],
    ['64:ff9b::127.0.0.1', false],
    ['64:ff9b:1::a00:1', false],
    ['2002:7f00:1::', false],
    ['2002:a00:1::1', false],
    // Teredo, documentation, ORCHID and the other 2001::/23 blocks.
    ['2001::1', false],
    ['2001:db8::1', false],
    ['3fff::1', false],
    ['fe80::1', false],
    ['fe80::1%eth0', false],
    ['fd00::1', false],
    ['fc00::1', false],
    ['fec0::1', false],
    ['ff02::1', false],
    ['100::1', false],
    ['not an address', false],
    ['', false],
  ])('%s is public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it.each(['https://[::127.0.0.1]/', 'https://[::7f00:1]/', 'https://[::ffff:0:127.0.0.1]/', 'https://[64:ff9b::7f00:1]/hook', 'https://[2002:7f00:1::]/'])(
    'refuses %s outside development',
    (url) => {
      expect(webhookUrlProblem(url, false)).toBe('private_address');
    },
  );

  it('asks for https to a public host outside development', () => {
    expect(webhookUrlProblem('https://api.example.com/playport', false)).toBeNull();
    expect(webhookUrlProblem('https://93.184.215.14/hook', false)).toBeNull();
    expect(webhookUrlProblem('https://[2606:4700:4700::1111]/hook', false)).toBeNull();
    expect(webhookUrlProblem('http://api.example.com/playport', false)).toBe('scheme');
    expect(webhookUrlProblem('http://127.0.0.1:8787/hook', false)).toBe('scheme');
    expect(webhookUrlProblem('ftp://api.example.com/', false)).toBe('scheme');
    expect(webhookUrlProblem('https://localhost/hook', false)).toBe('private_address');
    expect(webhookUrlProblem('https://game.localhost/hook', false)).toBe('private_address');
    expect(webhookUrlProblem('https://[::1]/hook', false)).toBe('private_address');
    expect(webhookUrlProblem('https://169.254.169.254/latest/meta-data', false)).toBe('private_address');
    expect(webhookUrlProblem('https://192.168.0.10/hook', false)).toBe('private_address');
    expect(webhookUrlProblem('https://[::ffff:10.0.0.1]/hook', false)).toBe('private_address');
    // WHATWG URL reads these as IPv4 addresses: 127.0.0.1 in other spellings.
    expect(webhookUrlProblem('https://2130706433/hook', false)).toBe('private_address');
    expect(webhookUrlProblem('https://0x7f.1/hook', false)).toBe('private_address');
    expect(webhookUrlProblem('https://user:secret@api.example.com/', false)).toBe('credentials');
    expect(webhookUrlProblem('api.example.com/hook', false)).toBe('invalid');
    expect(webhookUrlProblem(`https://example.com/${'a'.repeat(2000)}`, false)).toBe('invalid');
  });

  it('allows http to loopback and private addresses in development, but http only to loopback', () => {
    expect(webhookUrlProblem('http://127.0.0.1:8787/hook', true)).toBeNull();
    expect(webhookUrlProblem('http://localhost:8787/hook', true)).toBeNull();
    expect(webhookUrlProblem('https://192.168.0.10/hook', true)).toBeNull();
    expect(webhookUrlProblem('http://api.example.com/hook', true)).toBe('scheme');
  });
});
