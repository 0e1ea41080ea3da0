// One HTTP attempt of a webhook: a JSON POST to the address checked before it (the connection
// goes to that address whatever DNS answers meanwhile, so a name cannot be rebound to a private
// address between check and send), redirects not followed, a deadline, and the start of the answer.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './urls';

/** What is kept of a receiver's answer. */
export const RESPONSE_BODY_MAX_BYTES = 4 * 1024;

export interface AttemptOutcome {
  /** The receiver's status; null when none came. */
  statusCode: number | null;
  durationMs: number;
  /** Why the attempt failed, in words for the endpoint's owner; null on a 2xx. */
  error: string | null;
  responseBody: string | null;
}

export function isSuccess(statusCode: number | null): boolean {
  return statusCode !== null && statusCode >= 200 && statusCode < 300;
}

/** A lookup that answers the checked address, whatever name is asked. */
function pinnedLookup({ address, family }: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

export function postWebhook(
  url: URL,
  address: ResolvedAddress,
  headers: Record<string, string>,
  body: string,
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
    const request = transport.request(url, {
      method: 'POST',
      lookup: pinnedLookup(address),
      agent: false,
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'affiliate-network-webhooks/1',
      },
    });
    const deadline = setTimeout(() => {
      request.destroy();
      settle({
        statusCode: null,
        error: `no answer within ${timeoutMs / 1000} s`,
        responseBody: null,
      });
    }, timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) =>
      settle({
        statusCode: null,
        error: `request failed: ${error.code ?? error.message}`,
        responseBody: null,
      }),
    );
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      const finish = () => {
        const statusCode = response.statusCode ?? null;
        const responseBody = Buffer.concat(chunks)
          .subarray(0, RESPONSE_BODY_MAX_BYTES)
          .toString('utf8');
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
    request.end(body);
  });
}
