// TRUST_PROXY as the service holds it: which proxies in front of it may say who the client is
// (X-Forwarded-For; src/http/clientIp.ts reads it). Either how many there are (0: none), or their
// addresses and ranges, so a request that did not come through one of them is never believed.
// Parsed once, by src/platform/config.ts. Pure.
import { BlockList, isIP } from 'node:net';

/** The most hops a count may name: more proxies than this in a row is a configuration slip. */
export const MAX_PROXY_HOPS = 10;

/** A proxy's address or range as written (`192.0.2.7`, `10.0.0.0/8`, `2001:db8::/32`). */
interface ProxyRange {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** `text` as a proxy's address or range, or null when it is neither. */
export function proxyRange(text: string): ProxyRange | null {
  const match = /^([^/]+)(?:\/(\d{1,3}))?$/.exec(text);
  if (!match) return null;
  const [, address, prefix] = match;
  const version = isIP(address!);
  if (version === 0) return null;
  const bits = version === 4 ? 32 : 128;
  const length = prefix === undefined ? bits : Number(prefix);
  if (length > bits) return null;
  return { address: address!, prefix: length, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** Proxies known by their addresses: an address is trusted when it is one of them or in their ranges. */
export class TrustedProxies {
  private readonly list = new BlockList();

  constructor(readonly ranges: readonly ProxyRange[]) {
    for (const { address, prefix, family } of ranges) this.list.addSubnet(address, prefix, family);
  }

  /** Whether `address` is one of the proxies (an IPv4-mapped IPv6 address matches its IPv4 range). */
  trusts(address: string): boolean {
    const version = isIP(address);
    return version !== 0 && this.list.check(address, version === 4 ? 'ipv4' : 'ipv6');
  }
}

/** A count of proxies in front of the service (0: X-Forwarded-For is never believed), or the proxies themselves. */
export type TrustProxy = number | TrustedProxies;
