// The client address the quota and the click counter count against. The socket's peer is the
// truth; X-Forwarded-For is believed only as far as TRUST_PROXY says (src/platform/trustProxy.ts).
// Each proxy appends the address it saw, so the entries are read from the right: with a count of
// proxies, the entry that many from the right (the address the outermost proxy saw); with the
// proxies' addresses, the first address from the right, the peer included, that is not one of
// them (a request that did not come through a proxy believes nothing it says).
import { isIP } from 'node:net';
import type { TrustProxy } from '../platform/trustProxy';

/** yoga's node server context carries the Node request; `app.fetch` in tests has none. */
interface NodeServerContext {
  req?: { socket?: { remoteAddress?: string } };
}

const UNKNOWN_CLIENT_IP = 'unknown';

/**
 * The client among the forwarded entries (left to right, as the header lists them) and the peer.
 * An entry the proxies vouch for that is not an address (a name, junk, 3,000 characters) would
 * make a bucket of its own: the peer counts instead.
 */
export function forwardedClient(
  entries: readonly string[],
  peer: string,
  trust: TrustProxy,
): string {
  if (trust === 0 || entries.length === 0) return peer;
  let client: string;
  if (typeof trust === 'number') {
    // Fewer entries than proxies: the request skipped the outer ones, and the left-most entry is
    // the address the first proxy it met saw.
    client = entries[Math.max(0, entries.length - trust)]!;
  } else {
    const chain = [...entries, peer];
    let i = chain.length - 1;
    while (i > 0 && trust.trusts(chain[i]!)) i -= 1;
    client = chain[i]!;
  }
  return isIP(client) ? client : peer;
}

export function clientIpOf(request: Request, serverContext: unknown, trust: TrustProxy): string {
  const peer =
    (serverContext as NodeServerContext | undefined)?.req?.socket?.remoteAddress ||
    UNKNOWN_CLIENT_IP;
  if (trust === 0) return peer;
  const forwarded = request.headers.get('x-forwarded-for');
  if (forwarded === null) return peer;
  return forwardedClient(
    forwarded.split(',').map((entry) => entry.trim()),
    peer,
    trust,
  );
}
