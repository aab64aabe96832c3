// The client the failed-login limit counts (client-address.ts): the peer, or, from a trusted proxy,
// the last untrusted well-formed address of X-Forwarded-For; junk is never taken.
import { describe, expect, it } from 'vitest';
import { clientAddressOf, TRUST_NONE, trustProxyOf, trustProxySetting } from './client-address.ts';

describe('trustProxyOf', () => {
  it('takes addresses, subnets, loopback and none, as the mock does', () => {
    expect(trustProxyOf('none')).toBe(TRUST_NONE);
    expect(trustProxyOf('loopback')('127.0.0.5', 0)).toBe(true);
    expect(trustProxyOf('loopback')('::1', 0)).toBe(true);
    expect(trustProxyOf('loopback')('10.0.0.1', 0)).toBe(false);
    expect(trustProxyOf('10.0.0.0/8, 192.0.2.1')('10.1.2.3', 0)).toBe(true);
    expect(trustProxyOf('10.0.0.0/8, 192.0.2.1')('192.0.2.1', 1)).toBe(true);
    expect(trustProxyOf('10.0.0.0/8')('::ffff:10.1.2.3', 0)).toBe(true);
  });

  it('refuses anything else with one sentence', () => {
    for (const bad of ['', ' ', 'proxy.example', '10.0.0.0/99', 'loopback,,10.0.0.1'])
      expect(() => trustProxyOf(bad)).toThrow(/^--trust-proxy takes addresses, subnets, loopback or none: /);
  });
});

describe('trustProxySetting: the mock’s --trust-proxy, checked as the tool server’s', () => {
  it('is Express’s setting for a value the tool server takes, false for none', () => {
    expect(trustProxySetting('none')).toBe(false);
    expect(trustProxySetting('loopback')).toBe('loopback');
    expect(trustProxySetting('10.0.0.0/8, 192.0.2.1')).toBe('10.0.0.0/8, 192.0.2.1');
  });

  it('refuses what the tool server refuses, with the same sentence', () => {
    for (const bad of ['', 'proxy.example', 'loopback,,10.0.0.1'])
      expect(() => trustProxySetting(bad)).toThrow(
        /^--trust-proxy takes addresses, subnets, loopback or none: /,
      );
  });
});

describe('clientAddressOf', () => {
  const loopback = trustProxyOf('loopback');

  it('is the peer when no one is trusted, whatever the header says', () => {
    expect(clientAddressOf('127.0.0.1', '203.0.113.5', TRUST_NONE)).toBe('127.0.0.1');
  });

  it('is the address the trusted peer names, read right to left up to the first untrusted hop', () => {
    expect(clientAddressOf('127.0.0.1', '203.0.113.5', loopback)).toBe('203.0.113.5');
    expect(clientAddressOf('127.0.0.1', '203.0.113.5, 198.51.100.7', loopback)).toBe('198.51.100.7');
    expect(clientAddressOf('127.0.0.1', '203.0.113.5, 127.0.0.9', loopback)).toBe('203.0.113.5');
    expect(clientAddressOf('127.0.0.1', '2001:db8::1', loopback)).toBe('2001:db8::1');
    expect(clientAddressOf('127.0.0.1', undefined, loopback)).toBe('127.0.0.1');
  });

  it('an untrusted peer is the client, however it names others', () => {
    expect(clientAddressOf('192.0.2.9', '203.0.113.5', loopback)).toBe('192.0.2.9');
  });

  it('junk is never taken: the trusted hop that passed it on is the client', () => {
    for (const junk of ['not-an-ip', '10.0.0.1:80', '[::1]', '999.1.1.1', 'fe80::1%eth0', '', 'unknown'])
      expect(clientAddressOf('127.0.0.1', junk, loopback), junk).toBe('127.0.0.1');
    expect(clientAddressOf('127.0.0.1', '203.0.113.5, junk, 127.0.0.2', loopback)).toBe('127.0.0.2');
    expect(clientAddressOf('127.0.0.1', 'junk, 203.0.113.5', loopback)).toBe('203.0.113.5');
    expect(clientAddressOf('127.0.0.1', 'j'.repeat(8000), loopback)).toBe('127.0.0.1');
    expect(clientAddressOf('127.0.0.1', 'junk, 10.1.2.3', trustProxyOf('loopback, 10.0.0.0/8'))).toBe(
      '10.1.2.3',
    );
  });

  it('no peer (the socket already closed): no address', () => {
    expect(clientAddressOf(undefined, '203.0.113.5', loopback)).toBeUndefined();
  });
});
