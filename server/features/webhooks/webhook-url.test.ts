import { describe, expect, it } from 'vitest';
import { isPublicAddress, webhookUrlProblem } from './webhook-url.ts';

// Where a webhook may go (decision 100): https to public addresses; loopback and private ones only in development.
describe('webhook URL rule', () => {
  it('tells public addresses from loopback, private, link-local and reserved ones', () => {
    for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:93.184.215.14']) expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      '127.0.0.1',
      '10.0.0.5',
      '172.16.3.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '64:ff9b::a00:1',
      'not an address',
    ])
      expect(isPublicAddress(address), address).toBe(false);
  });

  it('asks for https to a public host outside development', () => {
    expect(webhookUrlProblem('https://api.example.com/playport', false)).toBeNull();
    expect(webhookUrlProblem('https://93.184.215.14/hook', false)).toBeNull();
    expect(webhookUrlProblem('http://api.example.com/playport', false)).toBe('scheme');
    expect(webhookUrlProblem('http://127.0.0.1:8787/hook', false)).toBe('scheme');
    expect(webhookUrlProblem('ftp://api.example.com/', false)).toBe('scheme');
    expect(webhookUrlProblem('https://localhost/hook', false)).toBe('private_address');
    expect(webhookUrlProblem('https://game.localhost/hook', false)).toBe('private_address');
    expect(webhookUrlProblem('https://[::1]/hook', false)).toBe('private_address');
    expect(webhookUrlProblem('https://169.254.169.254/latest/meta-data', false)).toBe('private_address');
    expect(webhookUrlProblem('https://192.168.0.10/hook', false)).toBe('private_address');
    expect(webhookUrlProblem('https://[::ffff:10.0.0.1]/hook', false)).toBe('private_address');
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
