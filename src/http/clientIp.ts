// The client address the quota is counted against. The socket's peer is the truth; the
// X-Forwarded-For header is believed only behind a trusted proxy (TRUST_PROXY), which appends the
// address it saw, so the right-most entry is the one the proxy vouches for, if it is an address.
import { isIP } from 'node:net';

/** yoga's node server context carries the Node request; `app.fetch` in tests has none. */
interface NodeServerContext {
  req?: { socket?: { remoteAddress?: string } };
}

const UNKNOWN_CLIENT_IP = 'unknown';

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
