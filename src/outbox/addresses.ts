// What kind of address an IP address is, for the webhook URL check (no server-side request
// forgery): only public addresses are reachable in production. The special-purpose ranges are
// ipaddr.js's (`range()`, kept with IANA's registries); an IPv6 address that carries an IPv4
// address is judged by the IPv4 address it carries as well. Pure; no DNS here.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export type AddressKind =
  | 'public'
  | 'loopback'
  /** RFC 1918, carrier-grade NAT (100.64/10), IPv6 unique-local (fc00::/7) and site-local (fec0::/10). */
  | 'private'
  /** 169.254/16, fe80::/10: never reachable, not even in development. */
  | 'link-local'
  /** Cloud platforms' metadata and control addresses: never reachable. */
  | 'metadata'
  /** Unspecified, multicast, broadcast, documentation and every other special-purpose range. */
  | 'reserved';

/** Cloud platforms' instance metadata and control endpoints, as ipaddr.js writes them. */
const METADATA_ADDRESSES = new Set([
  // AWS, GCP, Azure, OpenStack and others: instance metadata (and credentials).
  '169.254.169.254',
  // Azure's platform address (WireServer): the VM agent's configuration, DNS, health probes.
  '168.63.129.16',
  // Alibaba Cloud's instance metadata.
  '100.100.100.200',
  // AWS instance metadata over IPv6 (fd00:ec2::254).
  'fd00:ec2:0:0:0:0:0:254',
]);

// The kinds of ipaddr.js's ranges that are not `reserved`; any range it names that is not listed
// here (unspecified, multicast, broadcast, documentation, benchmarking, AS112, ...) is reserved.
const IPV4_KINDS: Record<string, AddressKind> = {
  unicast: 'public',
  loopback: 'loopback',
  private: 'private',
  carrierGradeNat: 'private',
  linkLocal: 'link-local',
};
const IPV6_KINDS: Record<string, AddressKind> = {
  unicast: 'public',
  loopback: 'loopback',
  uniqueLocal: 'private',
  deprecatedSiteLocal: 'private',
  linkLocal: 'link-local',
};

const ipv4Of = (bytes: number[]) => new ipaddr.IPv4(bytes);

/**
 * The IPv4 addresses an IPv6 address carries, by the transition mechanism its range names; null
 * when where it sits cannot be known.
 */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const bytes = address.toByteArray();
  const tail = ipv4Of(bytes.slice(12));
  switch (address.range() as string) {
    case 'ipv4Mapped': // ::ffff:0:0/96
    case 'rfc6145': // ::ffff:0:0:0/96, IPv4-translated
      return [tail];
    case 'rfc6052':
      // 64:ff9b::/96 carries it last; in the local-use 64:ff9b:1::/48 the network chooses its
      // prefix length, and with it where the IPv4 address sits (RFC 6052 §2.2).
      return bytes[5] === 0x01 ? null : [tail];
    case '6to4': // 2002:AABB:CCDD::/48 carries AA.BB.CC.DD
      return [ipv4Of(bytes.slice(2, 6))];
    case 'teredo': // 2001::/32: the Teredo server, and the client's address (bits inverted)
      return [ipv4Of(bytes.slice(4, 8)), ipv4Of(bytes.slice(12).map((byte) => byte ^ 0xff))];
    case 'unicast': // ::a.b.c.d, IPv4-compatible (deprecated; a stack may still route it as IPv4)
      return bytes.slice(0, 12).every((byte) => byte === 0) ? [tail] : [];
    default:
      return [];
  }
}

function kindOf(address: ipaddr.IPv4 | ipaddr.IPv6): AddressKind {
  if (METADATA_ADDRESSES.has(address.toNormalizedString())) return 'metadata';
  if (address instanceof ipaddr.IPv4) return IPV4_KINDS[address.range()] ?? 'reserved';
  const carried = embeddedIpv4(address)?.map(kindOf) ?? ['reserved' as const];
  const refused = carried.find((kind) => kind !== 'public');
  if (refused) return refused;
  if (carried.length > 0) return 'public';
  return IPV6_KINDS[address.range()] ?? 'reserved';
}

/** The kind of an IP address; anything that is not an IP address is `reserved`. */
export function classifyAddress(address: string): AddressKind {
  // node:net decides what an address is (ipaddr.js also reads `127.1` or `0x7f.0.0.1` as IPv4).
  if (!isIP(address)) return 'reserved';
  return kindOf(ipaddr.parse(address));
}

/**
 * Whether a webhook may be sent to an address of this kind: public ones always; loopback and
 * private ones only when allowed (WEBHOOK_ALLOW_PRIVATE_URLS); link-local, metadata and reserved never.
 */
export function isReachable(kind: AddressKind, allowPrivate: boolean): boolean {
  if (kind === 'public') return true;
  return allowPrivate && (kind === 'loopback' || kind === 'private');
}
