// What one quota bucket stands for: an address, or an IPv6 client's network.
import { isIP } from 'node:net';

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
