// Goal: X-Forwarded-For names the client only when the socket peer is a listed proxy, hops are read from the
// nearest end, and anything that is not a bare IP address falls back to the peer. Method: table of cases.
import assert from 'node:assert/strict';
import { isIP } from 'node:net';
import { test } from 'node:test';
import {
  clientAddress,
  parseTrustedProxies,
  trustEveryProxy,
  trustNoProxy,
} from './client-address.js';

test('listed addresses and CIDR blocks, IPv4 and IPv6; anything else refuses to start', () => {
  const proxies = parseTrustedProxies(' 127.0.0.1, 10.0.0.0/8 ,fd00::/8');
  for (const peer of ['127.0.0.1', '10.200.3.4', 'fd12::1'])
    assert.equal(proxies.trusts(peer), true, peer);
  for (const peer of ['127.0.0.2', '11.0.0.1', 'fe80::1', 'not-an-ip', ''])
    assert.equal(proxies.trusts(peer), false, peer);
  for (const bad of [
    'localhost',
    '10.0.0.0/33',
    '10.0.0.0/8/1',
    '::1/129',
    '1.2.3.4:80',
    '10.0.0.0/x',
  ]) {
    assert.throws(() => parseTrustedProxies(bad), /IBANQA_TRUSTED_PROXIES/, bad);
  }
  assert.equal(parseTrustedProxies('').trusts('127.0.0.1'), false);
});

test('the client is the nearest hop that is not a listed proxy; a malformed hop ends the walk at the peer', () => {
  const proxies = parseTrustedProxies('127.0.0.1, 10.0.0.0/8');
  const cases: [string, string, string][] = [
    ['127.0.0.1', '198.51.100.7', '198.51.100.7'],
    ['127.0.0.1', '203.0.113.1, 198.51.100.7, 10.1.1.1', '198.51.100.7'],
    ['127.0.0.1', ' 2001:db8::7 ', '2001:db8::7'],
    ['127.0.0.1', '10.0.0.1, 10.0.0.2', '10.0.0.1'],
    ['127.0.0.1', 'not-an-ip', '127.0.0.1'],
    ['127.0.0.1', '203.0.113.9:4711', '127.0.0.1'],
    ['127.0.0.1', '[2001:db8::1]:443', '127.0.0.1'],
    ['127.0.0.1', '198.51.100.7, garbage, 10.0.0.3', '127.0.0.1'],
    ['127.0.0.1', '', '127.0.0.1'],
    ['192.0.2.50', '198.51.100.7', '192.0.2.50'],
  ];
  for (const [peer, forwarded, expected] of cases)
    assert.equal(clientAddress(peer, forwarded, proxies), expected, `${peer} ${forwarded}`);
  assert.equal(clientAddress('127.0.0.1', '198.51.100.7', trustNoProxy), '127.0.0.1');
});

test('the deprecated IBANQA_TRUST_PROXY=true (every peer trusted) still yields a bare IP for any header', () => {
  for (const forwarded of [
    'not-an-ip',
    '203.0.113.9:4711',
    '2001:db8::1',
    '203.0.113.9',
    ',',
    '1.2.3.4 5.6.7.8',
  ]) {
    const address = clientAddress('127.0.0.1', forwarded, trustEveryProxy);
    assert.ok(isIP(address) !== 0, `${forwarded} -> ${address}`);
  }
  assert.equal(
    clientAddress('127.0.0.1', '198.51.100.1, 203.0.113.9', trustEveryProxy),
    '198.51.100.1',
  );
});
