// Conditional GETs (RFC 9110 §8.8.3, §13.1.2): every successful GET route answer carries a strong
// `ETag` derived from its body, and `If-None-Match` naming it is answered 304 without the body.
// A client that keeps its last copy (a sync job, a dashboard) revalidates for a few bytes.
import { createHash } from 'node:crypto';
import { Headers, Response } from '../fetchApi';

/** The body's entity tag: a digest of its bytes, so equal bodies have equal tags. */
export function entityTag(body: Uint8Array): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** Whether an `If-None-Match` value names `tag` (weak comparison: `W/` is ignored) or is `*`. */
export function ifNoneMatchHolds(header: string | null, tag: string): boolean {
  if (header === null) return false;
  return header.split(',').some((candidate) => {
    const trimmed = candidate.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === tag;
  });
}

// What a 304 repeats of the 200 it stands for (RFC 9110 §15.4.5); the edge adds its own headers.
const KEPT_ON_NOT_MODIFIED = ['cache-control', 'content-location', 'expires', 'vary'];

/** The answer to a GET, tagged; 304 when the client already holds this body. */
export async function conditionalAnswer(request: Request, response: Response): Promise<Response> {
  if (response.status !== 200) return response;
  const body = new Uint8Array(await response.arrayBuffer());
  const tag = entityTag(body);
  if (ifNoneMatchHolds(request.headers.get('if-none-match'), tag)) {
    const headers = new Headers({ ETag: tag });
    for (const name of KEPT_ON_NOT_MODIFIED) {
      const value = response.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    return new Response(null, { status: 304, headers });
  }
  response.headers.set('ETag', tag);
  return new Response(body, { status: 200, headers: response.headers });
}
