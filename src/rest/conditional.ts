// Conditional GETs (RFC 9110 §8.8.3, §13.1.2): every successful GET route answer carries a strong
// `ETag` derived from its body, and `If-None-Match` naming it is answered 304 without the body.
// A client that keeps its last copy (a sync job, a dashboard) revalidates for a few bytes.
import { createHash } from 'node:crypto';

/** The body's entity tag: a digest of its bytes, so equal bodies have equal tags. */
export function entityTag(body: string | Uint8Array): string {
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
