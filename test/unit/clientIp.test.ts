// The client address the quota counts: X-Forwarded-For only as far as TRUST_PROXY says (a count
// of proxies, or their addresses) and only when it is an address; IPv6 clients by their /64.
import { clientIpOf, forwardedClient } from '../../src/http/clientIp';
import { addressBucket } from '../../src/limits/addressBucket';
import { proxyRange, TrustedProxies } from '../../src/platform/trustProxy';

const fromSocket = { req: { socket: { remoteAddress: '198.51.100.9' } } };
const forwarded = (value: string) =>
  new Request('http://api.test/', { headers: { 'x-forwarded-for': value } });
const proxies = (...ranges: string[]) =>
  new TrustedProxies(ranges.map((range) => proxyRange(range)!));

describe('clientIpOf', () => {
  test('behind one proxy: the right-most forwarded address', () => {
    expect(clientIpOf(forwarded('203.0.113.1, 192.0.2.7'), fromSocket, 1)).toBe('192.0.2.7');
    expect(clientIpOf(forwarded('2001:db8::1'), fromSocket, 1)).toBe('2001:db8::1');
  });

  test.each(['not-an-ip', 'x'.repeat(3000), '203.0.113.1, ', '999.1.1.1', ''])(
    'a forwarded entry that is not an address is ignored: %s',
    (value) => {
      expect(clientIpOf(forwarded(value), fromSocket, 1)).toBe('198.51.100.9');
    },
  );

  test('without TRUST_PROXY (0) the header is never believed', () => {
    expect(clientIpOf(forwarded('203.0.113.1'), fromSocket, 0)).toBe('198.51.100.9');
  });

  test('without the header: the peer', () => {
    expect(clientIpOf(new Request('http://api.test/'), fromSocket, 2)).toBe('198.51.100.9');
    expect(clientIpOf(new Request('http://api.test/'), fromSocket, proxies('198.51.100.9'))).toBe(
      '198.51.100.9',
    );
  });
});

describe('forwardedClient: a count of proxies', () => {
  // A client's own header, then what a CDN and the load balancer appended.
  const entries = ['203.0.113.66', '192.0.2.10', '198.51.100.20'];

  test('two proxies: the entry two from the right, whatever the client wrote before it', () => {
    expect(forwardedClient(entries, '10.0.0.2', 2)).toBe('192.0.2.10');
    expect(forwardedClient(entries, '10.0.0.2', 1)).toBe('198.51.100.20');
    expect(forwardedClient(entries, '10.0.0.2', 3)).toBe('203.0.113.66');
  });

  test('fewer entries than proxies: the left-most, the address the first proxy met saw', () => {
    expect(forwardedClient(['192.0.2.10'], '10.0.0.2', 2)).toBe('192.0.2.10');
  });

  test('the entry the proxies vouch for is no address: the peer', () => {
    expect(forwardedClient(['203.0.113.66', 'junk', '198.51.100.20'], '10.0.0.2', 2)).toBe(
      '10.0.0.2',
    );
  });
});

describe("forwardedClient: the proxies' addresses", () => {
  const lb = proxies('10.0.0.0/8', '2001:db8:ffff::/48');

  test('through a trusted proxy: the first address from the right that is none of them', () => {
    expect(forwardedClient(['203.0.113.66', '192.0.2.10'], '10.0.0.2', lb)).toBe('192.0.2.10');
    expect(forwardedClient(['203.0.113.66', '192.0.2.10', '10.1.2.3'], '10.0.0.2', lb)).toBe(
      '192.0.2.10',
    );
    expect(forwardedClient(['2001:db8::7'], '2001:db8:ffff::1', lb)).toBe('2001:db8::7');
  });

  test('an IPv4-mapped peer matches its IPv4 range', () => {
    expect(forwardedClient(['192.0.2.10'], '::ffff:10.0.0.2', lb)).toBe('192.0.2.10');
  });

  test('a request that did not come through a trusted proxy is believed in nothing it says', () => {
    expect(forwardedClient(['192.0.2.10'], '198.51.100.9', lb)).toBe('198.51.100.9');
  });

  test('every entry a trusted proxy: the left-most', () => {
    expect(forwardedClient(['10.9.9.9', '10.1.2.3'], '10.0.0.2', lb)).toBe('10.9.9.9');
  });

  test('the first untrusted entry is no address: the peer', () => {
    expect(forwardedClient(['not-an-ip', '10.1.2.3'], '10.0.0.2', lb)).toBe('10.0.0.2');
  });
});

describe('proxyRange', () => {
  test.each([
    ['192.0.2.7', { address: '192.0.2.7', prefix: 32, family: 'ipv4' }],
    ['10.0.0.0/8', { address: '10.0.0.0', prefix: 8, family: 'ipv4' }],
    ['2001:db8::/32', { address: '2001:db8::', prefix: 32, family: 'ipv6' }],
    ['::1', { address: '::1', prefix: 128, family: 'ipv6' }],
  ])('%s', (text, range) => {
    expect(proxyRange(text)).toEqual(range);
  });

  test.each([
    '',
    'proxy.internal',
    '10.0.0.0/33',
    '2001:db8::/129',
    '10.0.0/8',
    '10.0.0.1/',
    '1.2.3.4:80',
  ])('%j is none', (text) => {
    expect(proxyRange(text)).toBeNull();
  });
});

describe('addressBucket', () => {
  test('IPv4 addresses are their own bucket', () => {
    expect(addressBucket('203.0.113.7')).toBe('203.0.113.7');
  });

  test('an IPv6 client counts by its /64, however it writes the address', () => {
    const bucket = addressBucket('2001:db8:85a3:1234::1');
    expect(bucket).toBe('2001:db8:85a3:1234::/64');
    for (const address of [
      '2001:db8:85a3:1234:ffff:ffff:ffff:ffff',
      '2001:0DB8:85A3:1234:0:0:0:42',
      '2001:db8:85a3:1234::203.0.113.7',
    ]) {
      expect(addressBucket(address)).toBe(bucket);
    }
    expect(addressBucket('2001:db8:85a3:1235::1')).not.toBe(bucket);
    expect(addressBucket('::1')).toBe('0:0:0:0::/64');
  });

  test('an IPv4-mapped IPv6 address is the IPv4 address', () => {
    expect(addressBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('::ffff:cb00:7107')).toBe('203.0.113.7');
  });

  test('anything else stays as it is', () => {
    expect(addressBucket('unknown')).toBe('unknown');
  });
});
