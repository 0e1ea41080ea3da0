// What kind of address an IP address is, for the webhook URL check (no server-side request
// forgery): only public addresses are reachable in production. Pure; no DNS here.
import { isIPv4, isIPv6 } from 'node:net';

export type AddressKind =
  | 'public'
  | 'loopback'
  /** RFC 1918, carrier-grade NAT (100.64/10), IPv6 unique-local (fc00::/7). */
  | 'private'
  /** 169.254/16, fe80::/10: never reachable, not even in development. */
  | 'link-local'
  /** Cloud instance metadata (169.254.169.254, fd00:ec2::254): never reachable. */
  | 'metadata'
  /** Unspecified, multicast, broadcast, documentation and other reserved ranges. */
  | 'reserved';

type Range = [prefix: number[], bits: number, kind: AddressKind];

// The first matching range decides: metadata comes before the link-local range holding it.
const IPV4_RANGES: Range[] = [
  [[169, 254, 169, 254], 32, 'metadata'],
  [[0, 0, 0, 0], 8, 'reserved'],
  [[10, 0, 0, 0], 8, 'private'],
  [[100, 64, 0, 0], 10, 'private'],
  [[127, 0, 0, 0], 8, 'loopback'],
  [[169, 254, 0, 0], 16, 'link-local'],
  [[172, 16, 0, 0], 12, 'private'],
  [[192, 0, 0, 0], 24, 'reserved'],
  [[192, 0, 2, 0], 24, 'reserved'],
  [[192, 168, 0, 0], 16, 'private'],
  [[198, 18, 0, 0], 15, 'reserved'],
  [[198, 51, 100, 0], 24, 'reserved'],
  [[203, 0, 113, 0], 24, 'reserved'],
  [[224, 0, 0, 0], 4, 'reserved'],
  [[240, 0, 0, 0], 4, 'reserved'],
];

const IPV6_RANGES: Range[] = [
  [[0xfd, 0x00, 0x0e, 0xc2, ...Array<number>(10).fill(0), 0x02, 0x54], 128, 'metadata'],
  [Array<number>(16).fill(0), 128, 'reserved'],
  [[...Array<number>(15).fill(0), 1], 128, 'loopback'],
  [[0xfe, 0x80], 10, 'link-local'],
  [[0xfc, 0x00], 7, 'private'],
  [[0xff, 0x00], 8, 'reserved'],
  [[0x20, 0x01, 0x0d, 0xb8], 32, 'reserved'],
  [[0x01, 0x00, ...Array<number>(6).fill(0)], 64, 'reserved'],
];

function inRange(bytes: number[], [prefix, bits]: Range): boolean {
  for (let bit = 0; bit < bits; bit++) {
    const mask = 0x80 >> (bit % 8);
    const index = Math.floor(bit / 8);
    if (((bytes[index] ?? 0) & mask) !== ((prefix[index] ?? 0) & mask)) return false;
  }
  return true;
}

function ipv4Bytes(address: string): number[] {
  return address.split('.').map(Number);
}

/** The 16 bytes of an IPv6 address (`::`, an embedded dotted IPv4 tail and a zone id allowed). */
function ipv6Bytes(address: string): number[] {
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = ipv4Bytes(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const zeros = Array<string>(8 - headGroups.length - tailGroups.length).fill('0');
  const groups = tail === undefined ? headGroups : [...headGroups, ...zeros, ...tailGroups];
  return groups.flatMap((group) => {
    const value = parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
}

function kindIn(bytes: number[], ranges: Range[]): AddressKind {
  return ranges.find((range) => inRange(bytes, range))?.[2] ?? 'public';
}

/** An IPv4 address carried in an IPv6 one: IPv4-mapped (::ffff:0:0/96) or NAT64 (64:ff9b::/96). */
function embeddedIpv4(bytes: number[]): number[] | null {
  const isMapped = inRange(bytes, [[...Array<number>(10).fill(0), 0xff, 0xff], 96, 'public']);
  const isNat64 = inRange(bytes, [
    [0x00, 0x64, 0xff, 0x9b, ...Array<number>(8).fill(0)],
    96,
    'public',
  ]);
  return isMapped || isNat64 ? bytes.slice(12) : null;
}

/** The kind of an IP address; anything that is not an IP address is `reserved`. */
export function classifyAddress(address: string): AddressKind {
  if (isIPv4(address)) return kindIn(ipv4Bytes(address), IPV4_RANGES);
  if (!isIPv6(address)) return 'reserved';
  const bytes = ipv6Bytes(address);
  const ipv4 = embeddedIpv4(bytes);
  return ipv4 ? kindIn(ipv4, IPV4_RANGES) : kindIn(bytes, IPV6_RANGES);
}

/**
 * Whether a webhook may be sent to an address of this kind: public ones always; loopback and
 * private ones only when allowed (WEBHOOK_ALLOW_PRIVATE_URLS); link-local, metadata and reserved never.
 */
export function isReachable(kind: AddressKind, allowPrivate: boolean): boolean {
  if (kind === 'public') return true;
  return allowPrivate && (kind === 'loopback' || kind === 'private');
}
