// One HTTP attempt of a delivery (a webhook's signed JSON POST, a postback's GET or POST): sent to
// the address checked before it (the connection goes to that address whatever DNS answers
// meanwhile, so a name cannot be rebound to a private address between check and send), redirects
// not followed, a deadline, and the start of the answer.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkedAddress, type Resolve, type ResolvedAddress } from './urls';

/** What is kept of a receiver's answer: at most this many bytes, as JSON writes it out. */
export const RESPONSE_BODY_MAX_BYTES = 4 * 1024;

/** What a character takes in JSON: an escape for a control character, a quote or a backslash. */
function jsonBytesOf(character: string): number {
  const code = character.codePointAt(0)!;
  if (character === '"' || character === '\\' || '\b\f\n\r\t'.includes(character)) return 2;
  if (code < 0x20) return 6;
  return Buffer.byteLength(character);
}

/**
 * The start of an answer as it is kept: at most `maxBytes` once written out as JSON, so that a
 * receiver answering control characters (six bytes each in JSON) cannot make the stored answer
 * several times its bound when it is read back.
 */
export function keptAnswer(body: Buffer, maxBytes = RESPONSE_BODY_MAX_BYTES): string {
  let bytes = 0;
  let kept = '';
  for (const character of body.subarray(0, maxBytes).toString('utf8')) {
    bytes += jsonBytesOf(character);
    if (bytes > maxBytes) break;
    kept += character;
  }
  return kept;
}

/** A request as a lane builds it (src/outbox/lane.ts). */
export interface OutgoingRequest {
  method: 'GET' | 'POST';
  url: URL;
  /**
   * The path and query as written, sent as they are; default the URL's. A URL object removes dot
   * segments (`/a/%2E%2E/b` is `/b` to it), so a rendered target is not passed through one.
   */
  target?: string;
  headers: Record<string, string>;
  /** Null: no body (a GET, or a POST whose parameters are all in the URL). */
  body: string | null;
}

export interface AttemptOutcome {
  /** The receiver's status; null when none came. */
  statusCode: number | null;
  durationMs: number;
  /** Why the attempt failed, in words for the target's owner; null on a 2xx. */
  error: string | null;
  responseBody: string | null;
}

export function isSuccess(statusCode: number | null): boolean {
  return statusCode !== null && statusCode >= 200 && statusCode < 300;
}

/**
 * A lookup that answers the checked address, whatever name is asked. Asynchronously, as DNS does:
 * a connect that fails at once (no route to an IPv6 address, EACCES) then fails as the request's
 * 'error', after its listener is attached, instead of throwing inside `request()` and leaving the
 * TLS socket's error with no listener, which ends the process.
 */
function pinnedLookup({ address, family }: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) =>
    process.nextTick(() => {
      if (options.all) callback(null, [{ address, family }]);
      else callback(null, address, family);
    });
}

const failedRequest = (error: NodeJS.ErrnoException) => ({
  statusCode: null,
  error: `request failed: ${error.code ?? error.message}`,
  responseBody: null,
});

function sendRequest(
  { method, url, target, headers, body }: OutgoingRequest,
  address: ResolvedAddress,
  timeoutMs: number,
): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: Omit<AttemptOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve({ ...outcome, durationMs: elapsed() });
    };
    let request: http.ClientRequest;
    try {
      request = transport.request(url, {
        method,
        ...(target !== undefined && { path: target }),
        lookup: pinnedLookup(address),
        agent: false,
        headers: {
          ...headers,
          // A POST always says its length (0 without a body): no chunked encoding for receivers.
          ...(method === 'POST' && { 'content-length': String(Buffer.byteLength(body ?? '')) }),
        },
      });
    } catch (error) {
      // Whatever a request cannot even start with is this attempt's error, never the process's.
      return resolve({ ...failedRequest(error as NodeJS.ErrnoException), durationMs: elapsed() });
    }
    const deadline = setTimeout(() => {
      request.destroy();
      settle({
        statusCode: null,
        error: `no answer within ${timeoutMs / 1000} s`,
        responseBody: null,
      });
    }, timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => settle(failedRequest(error)));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      const finish = () => {
        const statusCode = response.statusCode ?? null;
        const responseBody = keptAnswer(Buffer.concat(chunks));
        settle({
          statusCode,
          error: isSuccess(statusCode) ? null : `answered HTTP ${statusCode}`,
          responseBody,
        });
        response.destroy();
      };
      response.on('data', (chunk: Buffer) => {
        if (kept >= RESPONSE_BODY_MAX_BYTES) return finish();
        chunks.push(chunk);
        kept += chunk.length;
      });
      response.on('end', finish);
      response.on('error', finish);
    });
    request.end(body ?? undefined);
  });
}

/**
 * Checks the request's host after DNS, then sends it to the address checked; `sent` says whether
 * a request was made (an address refused before sending took no time at the receiver).
 */
export async function sendToCheckedAddress(
  request: OutgoingRequest,
  allowPrivateUrls: boolean,
  resolve: Resolve,
  timeoutMs: number,
): Promise<{ outcome: AttemptOutcome; sent: boolean }> {
  const check = await checkedAddress(request.url, allowPrivateUrls, resolve);
  if (!check.ok) {
    const error = `not sent: ${check.reason}`;
    return { outcome: { statusCode: null, durationMs: 0, error, responseBody: null }, sent: false };
  }
  return { outcome: await sendRequest(request, check.address, timeoutMs), sent: true };
}
