// Idempotency-Key on createApiKey and rotateApiKey (GraphQL, header on POST /graphql), with the
// rules of the REST routes (src/idempotency.ts does the work): the same key and the same
// request within 24 h answer the first answer again, the same full apiKey included, and create or
// rotate nothing; the same key with a different request is a CONFLICT. Keys are scoped per
// dashboard user. The first answer is remembered with its secret sealed (src/auth/replaySeal.ts);
// the record expires after 24 h and is deleted then (by the next idempotent request).
import type { GraphQLResolveInfo } from 'graphql';
import { openSecret, sealSecret } from '../../auth/replaySeal';
import { IDEMPOTENCY_KEY_HEADER, parseIdempotencyKey, runIdempotently } from '../../idempotency';
import type { Context } from '../context';
import { BadRequestError, ConflictError } from '../../errors';
import { IDEMPOTENT_KEY_FIELDS, rootFieldCount } from './rules';
import type { IssuedKey } from './types';

/** What is stored for a replay: the key's id and its sealed full key, nothing in clear. */
interface StoredIssue {
  keyId: string;
  sealedApiKey: string;
}

function isStoredIssue(body: unknown): body is StoredIssue {
  const candidate = body as Partial<StoredIssue> | null;
  return typeof candidate?.keyId === 'string' && typeof candidate.sealedApiKey === 'string';
}

/**
 * Issues a key once per Idempotency-Key: without the header, `issue` just runs. `fingerprint` is
 * what the request asks (field and arguments); errors are not remembered, so a refused request
 * leaves the key free.
 */
export async function issueIdempotently(
  context: Context,
  info: GraphQLResolveInfo,
  userId: string,
  fingerprint: Record<string, unknown>,
  issue: () => Promise<IssuedKey>,
): Promise<IssuedKey> {
  const header = context.request.headers.get(IDEMPOTENCY_KEY_HEADER);
  if (header === null) return issue();
  const key = parseIdempotencyKey(header);
  if (rootFieldCount(info.operation, info.fragments, IDEMPOTENT_KEY_FIELDS) > 1) {
    throw new BadRequestError(
      `With ${IDEMPOTENCY_KEY_HEADER}, a request may create or rotate one key only`,
    );
  }
  const scope = `dashboard-user:${userId}`;
  const binding = `${scope}\n${key}`;
  let issued: IssuedKey | undefined;
  const { answer, replayed } = await runIdempotently({ scope, key, fingerprint }, async () => {
    issued = await issue();
    const stored: StoredIssue = {
      keyId: issued.key.id,
      sealedApiKey: sealSecret(issued.apiKey, binding),
    };
    return { status: 200, body: stored };
  });
  if (!replayed && issued) return issued;

  const apiKey = isStoredIssue(answer.body) ? openSecret(answer.body.sealedApiKey, binding) : null;
  if (apiKey === null || !isStoredIssue(answer.body)) {
    // Sealed under another server secret (rotated since): the answer cannot be shown again.
    throw new ConflictError(
      `The answer to ${IDEMPOTENCY_KEY_HEADER} ${key} can no longer be replayed; use a new key`,
    );
  }
  return { apiKey, key: { id: answer.body.keyId } };
}
