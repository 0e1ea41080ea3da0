// A POST's answer: 201 for what it made, 200 for what it found, once per Idempotency-Key and
// request (a retry gets the recorded status and the very same bytes).
import { accessRefusal } from '../auth/keyRefusal';
import type { VerifiedKey } from '../auth/verifyApiKey';
import { errorBody, toHttpError } from '../platform/errors';
import { Response } from '../platform/fetchApi';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  parseIdempotencyKey,
  runIdempotently,
} from '../platform/idempotency';
import type { RequestRecord } from '../requestRecord';
import type { RestExecution } from '../schema/context';
import type { PreparedRoute } from './prepare';
import { JSON_CONTENT_TYPE } from './read';

interface PostAnswer {
  status: number;
  body: string;
}

/** The route's operation for this request's key: the field's value, or its first error. */
export type ExecuteForKey = () => Promise<unknown>;

/** A POST's answer: 201 for what it made, 200 for what it found (the resolver says which). */
async function runPost(
  prepared: PreparedRoute,
  rest: RestExecution,
  execute: ExecuteForKey,
): Promise<PostAnswer> {
  const data = await execute();
  const status = rest.foundExisting ? 200 : (prepared.route.responseStatus ?? 200);
  return { status, body: JSON.stringify(data) };
}

/**
 * A POST's answer once per Idempotency-Key and request. The resolver's refusals (a 400) are
 * answers too, and recorded. A replay runs no resolver, so the key is authorized first, as the
 * route's scope check would: a key that has lost the scope, or whose account is closed, is refused
 * as a fresh request would be.
 */
async function runPostOnce(
  record: RequestRecord,
  prepared: PreparedRoute,
  apiKey: VerifiedKey,
  rest: RestExecution,
  idempotencyKey: string,
  execute: ExecuteForKey,
): Promise<PostAnswer & { replayed: boolean }> {
  const refusal = accessRefusal(apiKey, prepared.auth);
  if (refusal) throw refusal;
  const { answer, replayed } = await runIdempotently(
    {
      scope: `api-key:${apiKey.id}`,
      key: parseIdempotencyKey(idempotencyKey),
      fingerprint: {
        route: `${prepared.route.method} ${prepared.route.path}`,
        variables: rest.variables,
      },
    },
    async () => {
      try {
        return await runPost(prepared, rest, execute);
      } catch (error) {
        const refused = toHttpError(error, record.log);
        return { status: refused.status, body: JSON.stringify(errorBody(refused, record.id)) };
      }
    },
  );
  // Answers recorded as JSON values rather than the bytes sent are written out again.
  const body = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
  return { status: answer.status, body, replayed };
}

/** The response to a POST, replayed when it carries an Idempotency-Key already answered. */
export async function postResponse(
  record: RequestRecord,
  prepared: PreparedRoute,
  apiKey: VerifiedKey,
  rest: RestExecution,
  headers: Record<string, string>,
  execute: ExecuteForKey,
): Promise<Response> {
  const idempotencyKey = record.request.headers.get(IDEMPOTENCY_KEY_HEADER);
  const written =
    idempotencyKey === null
      ? { ...(await runPost(prepared, rest, execute)), replayed: false }
      : await runPostOnce(record, prepared, apiKey, rest, idempotencyKey, execute);
  return new Response(written.body, {
    status: written.status,
    headers: {
      'Content-Type': JSON_CONTENT_TYPE,
      ...record.answerHeaders,
      ...headers,
      ...(written.replayed && { [IDEMPOTENT_REPLAYED_HEADER]: 'true' }),
    },
  });
}
