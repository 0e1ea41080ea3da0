// Which addresses a webhook may reach: public ones; loopback and private ones only where private
// URLs are allowed; link-local, cloud metadata and reserved ones never.
import { classifyAddress, isReachable, type AddressKind } from '../../src/webhooks/addresses';

describe('classifyAddress', () => {
  test.each<[string, AddressKind]>([
    ['93.184.215.14', 'public'],
    ['8.8.8.8', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['100.127.255.255', 'private'],
    ['100.128.0.1', 'public'],
    ['169.254.169.254', 'metadata'],
    ['169.254.1.1', 'link-local'],
    ['0.0.0.0', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['2606:2800:220:1:248:1893:25c8:1946', 'public'],
    ['::1', 'loopback'],
    ['::', 'reserved'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fd00:ec2::254', 'metadata'],
    ['ff02::1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:93.184.215.14', 'public'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['example.com', 'reserved'],
    ['', 'reserved'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe('isReachable', () => {
  test.each<[AddressKind, boolean, boolean]>([
    ['public', false, true],
    ['public', true, true],
    ['loopback', false, false],
    ['loopback', true, true],
    ['private', false, false],
    ['private', true, true],
    ['link-local', true, false],
    ['metadata', true, false],
    ['reserved', true, false],
  ])('%s with private URLs allowed=%s: %s', (kind, allowPrivate, reachable) => {
    expect(isReachable(kind, allowPrivate)).toBe(reachable);
  });
});
