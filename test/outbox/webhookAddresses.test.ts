// Which addresses a webhook may reach: public ones; loopback and private ones only where private
// URLs are allowed; link-local, cloud metadata and reserved ones never.
import { classifyAddress, isReachable, type AddressKind } from '../../src/outbox/addresses';

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

// Forms that carry an IPv4 address inside an IPv6 one, and special-purpose ranges a hand-kept list
// missed: each is judged by what it really reaches.
describe('classifyAddress: embedded IPv4 forms and special-purpose ranges', () => {
  test.each<[string, string, AddressKind]>([
    ['IPv4-compatible, dotted', '::127.0.0.1', 'loopback'],
    ['IPv4-compatible, as URLs write it', '::7f00:1', 'loopback'],
    ['IPv4-compatible metadata', '::a9fe:a9fe', 'metadata'],
    ['IPv4-compatible private', '::10.0.0.1', 'private'],
    ['IPv4-compatible public', '::93.184.215.14', 'public'],
    ['IPv4-translated (::ffff:0:0:0/96) metadata', '::ffff:0:169.254.169.254', 'metadata'],
    ['IPv4-translated, hex', '::ffff:0:a9fe:a9fe', 'metadata'],
    ['IPv4-translated loopback', '::ffff:0:7f00:1', 'loopback'],
    ['local-use NAT64 (64:ff9b:1::/48), IPv4 last', '64:ff9b:1::a9fe:a9fe', 'reserved'],
    ['local-use NAT64, /48 layout', '64:ff9b:1:a9fe:a9:fe00::', 'reserved'],
    ['local-use NAT64 of a public address', '64:ff9b:1::5db8:d70e', 'reserved'],
    ['well-known NAT64 public', '64:ff9b::93.184.215.14', 'public'],
    ['well-known NAT64 private', '64:ff9b::10.0.0.1', 'private'],
    ['6to4 of a private IPv4', '2002:a00:1::1', 'private'],
    ['6to4 of loopback', '2002:7f00:1::', 'loopback'],
    ['6to4 of the metadata address', '2002:a9fe:a9fe::1', 'metadata'],
    ['6to4 of a public IPv4', '2002:5db8:d70e::1', 'public'],
    ['Teredo, client loopback (inverted bits)', '2001:0:5db8:d70e::80ff:fffe', 'loopback'],
    ['Teredo, server private', '2001:0:a00:1::f7f7:f7f7', 'private'],
    ['Teredo, server and client public', '2001:0:5db8:d70e::f7f7:f7f7', 'public'],
    ['site-local (fec0::/10)', 'fec0::1', 'private'],
    ['site-local, its top', 'feff:ffff::1', 'private'],
    ["Azure's platform address", '168.63.129.16', 'metadata'],
    ["Azure's platform address, IPv4-mapped", '::ffff:168.63.129.16', 'metadata'],
    ['Alibaba Cloud metadata', '100.100.100.200', 'metadata'],
    ['discard-only (100::/64)', '100::1', 'reserved'],
    ['benchmarking (2001:2::/48)', '2001:2::1', 'reserved'],
    ['ORCHIDv2 (2001:20::/28)', '2001:20::1', 'reserved'],
    ['documentation (3fff::/20)', '3fff::1', 'reserved'],
    ['6to4 relay anycast (192.88.99.0/24)', '192.88.99.1', 'reserved'],
    ['AS112 (192.175.48.0/24)', '192.175.48.1', 'reserved'],
    ['ipaddr.js would read 127.1 as an address; it is none', '127.1', 'reserved'],
  ])('%s: %s is %s', (_form, address, kind) => {
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
