// The client address the quota is counted against. The socket's peer is the truth; the
// X-Forwarded-For header is believed only behind a trusted proxy (TRUST_PROXY), which appends the
// address it saw, so the right-most entry is the one the proxy vouches for, if it is an address.
import { isIP } from 'node:net';

/** yoga's node server context carries the Node request; `app.fetch` in tests has none. */
interface NodeServerContext {
  req?: { socket?: { remoteAddress?: string } };
}

export const UNKNOWN_CLIENT_IP = 'unknown';

export function clientIpOf(request: Request, serverContext: unknown, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get('x-forwarded-for');
    const last = forwarded?.split(',').at(-1)?.trim();
    // Anything but an address (a name, junk, 3,000 characters) would make a bucket of its own.
    if (last && isIP(last)) return last;
  }
  const socketAddress = (serverContext as NodeServerContext | undefined)?.req?.socket
    ?.remoteAddress;
  return socketAddress || UNKNOWN_CLIENT_IP;
}

/** The eight 16-bit groups of an IPv6 address, as numbers. */
function ipv6Groups(ip: string): number[] {
  const [head = '', tail] = ip.split('::');
  const groupsOf = (part: string) =>
    part.split(':').flatMap((group) => {
      if (!group.includes('.')) return group ? [parseInt(group, 16)] : [];
      const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
      return [(a << 8) | b, (c << 8) | d];
    });
  const start = groupsOf(head);
  const end = tail === undefined ? [] : groupsOf(tail);
  return [...start, ...Array(8 - start.length - end.length).fill(0), ...end];
}

/**
 * What one quota bucket stands for: an IPv4 address, or an IPv6 client's /64 (the network one
 * subscriber gets; anyone can use a million addresses within it). IPv4-mapped IPv6 is IPv4.
 */
export function addressBucket(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  const groups = ipv6Groups(ip.toLowerCase());
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
