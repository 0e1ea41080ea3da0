// Idempotency-Key on the mutations that issue a secret (createApiKey, rotateApiKey,
// createWebhookEndpoint; the header on POST /graphql), with the rules of the REST routes
// (src/platform/idempotency.ts does the work): the same key and the same request within 24 h answer the
// first answer again, the same secret included, and issue nothing; the same key with a different
// request is a CONFLICT. Keys are scoped per dashboard user, across these mutations. The first
// answer is remembered with its secret sealed (src/modules/secrets/replaySeal.ts); the record expires after
// 24 h and is deleted then (by the next idempotent request).
import type { GraphQLResolveInfo } from 'graphql';
import { openSecret, sealSecret } from './replaySeal';
import { BadRequestError, ConflictError } from '../../platform/errors';
import {
  IDEMPOTENCY_KEY_HEADER,
  parseIdempotencyKey,
  runIdempotently,
} from '../../platform/idempotency';
import type { Context } from '../../schema/context';
import { rootFieldCount, secretIssuingFields, storedIssueOf, type StoredIssue } from './rules';

/** Said by each secret-issuing mutation's description. */
export const IDEMPOTENCY_NOTE =
  ' With an Idempotency-Key header, a retry of the same request within 24 h gets the first ' +
  'answer again, the same secret included, and issues nothing; the same Idempotency-Key with ' +
  'another request is a CONFLICT.';

/** What a secret-issuing mutation answers: the id of what holds the secret, and the secret, once. */
export interface IssuedSecret {
  id: string;
  secret: string;
}

/**
 * Issues a secret once per Idempotency-Key: without the header, `issue` just runs. `fingerprint`
 * is what the request asks (field and arguments); errors are not remembered, so a refused request
 * leaves the key free.
 */
export async function issueIdempotently(
  context: Context,
  info: GraphQLResolveInfo,
  userId: string,
  fingerprint: { field: string } & Record<string, unknown>,
  issue: () => Promise<IssuedSecret>,
): Promise<IssuedSecret> {
  const header = context.record?.request.headers.get(IDEMPOTENCY_KEY_HEADER) ?? null;
  if (header === null) return issue();
  const key = parseIdempotencyKey(header);
  const issuing = secretIssuingFields(info.schema);
  if (rootFieldCount(info.operation, info.fragments, issuing) > 1) {
    throw new BadRequestError(
      `With ${IDEMPOTENCY_KEY_HEADER}, a request may issue one secret only (one of ${[...issuing].join(', ')})`,
    );
  }
  const scope = `dashboard-user:${userId}`;
  const binding = `${scope}\n${key}`;
  let issued: IssuedSecret | undefined;
  const { answer, replayed } = await runIdempotently({ scope, key, fingerprint }, async () => {
    issued = await issue();
    const record: StoredIssue = { id: issued.id, sealedSecret: sealSecret(issued.secret, binding) };
    return { status: 200, body: record };
  });
  if (!replayed && issued) return issued;

  const stored = storedIssueOf(answer.body);
  const secret = stored && openSecret(stored.sealedSecret, binding);
  if (!stored || secret === null) {
    // Sealed under another server secret (rotated since): the answer cannot be shown again.
    throw new ConflictError(
      `The answer to ${IDEMPOTENCY_KEY_HEADER} ${key} can no longer be replayed; use a new key`,
    );
  }
  return { id: stored.id, secret };
}
