// The client address the quota counts: X-Forwarded-For only behind a trusted proxy and only when
// it is an address; IPv6 clients by their /64.
import { clientIpOf } from '../../src/http/clientIp';
import { addressBucket } from '../../src/limits/addressBucket';

const fromSocket = { req: { socket: { remoteAddress: '198.51.100.9' } } };
const forwarded = (value: string) =>
  new Request('http://api.test/', { headers: { 'x-forwarded-for': value } });

describe('clientIpOf', () => {
  test('behind a trusted proxy: the right-most forwarded address', () => {
    expect(clientIpOf(forwarded('203.0.113.1, 192.0.2.7'), fromSocket, true)).toBe('192.0.2.7');
    expect(clientIpOf(forwarded('2001:db8::1'), fromSocket, true)).toBe('2001:db8::1');
  });

  test.each(['not-an-ip', 'x'.repeat(3000), '203.0.113.1, ', '999.1.1.1', ''])(
    'a forwarded entry that is not an address is ignored: %s',
    (value) => {
      expect(clientIpOf(forwarded(value), fromSocket, true)).toBe('198.51.100.9');
    },
  );

  test('without TRUST_PROXY the header is never believed', () => {
    expect(clientIpOf(forwarded('203.0.113.1'), fromSocket, false)).toBe('198.51.100.9');
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
