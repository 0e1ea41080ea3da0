// The quota at the edge: what a request presents (its key, read once and trusted as far as its
// pre-check allows before any lookup; its dashboard token), counted once against its caller's
// budget, with the decision's headers on the record and a 429 when refused.
import { errorResponse, TooManyRequestsError } from '../platform/errors';
import {
  rateLimitHeaders,
  retryAfterSeconds,
  type PresentedCredentials,
  type RequestQuota,
} from '../limits/requestQuota';
import { quotaRefusals } from '../platform/metrics';
import type { RequestRecord } from '../requestRecord';

/** What the request presents to the quota: its key and its dashboard token. */
function presentedCredentials(record: RequestRecord): PresentedCredentials {
  const precheck = record.keyPrecheck();
  return {
    key: precheck && {
      ...precheck,
      verify: async () => (await record.apiKey())?.id ?? null,
    },
    token: record.request.headers.has('x-api-token')
      ? {
          verify: async () => {
            const token = await record.dashboardToken();
            return 'userId' in token ? token.userId : null;
          },
        }
      : null,
  };
}

/** Counts the request; its 429 when the caller is out of budget, else null. */
export async function quotaRefusal(
  quota: RequestQuota,
  record: RequestRecord,
): Promise<Response | null> {
  const decision = await quota.admit(presentedCredentials(record), record.clientIp);
  Object.assign(record.answerHeaders, rateLimitHeaders(decision));
  if (decision.allowed) return null;
  quotaRefusals.inc({ limit: decision.policy.name });
  const seconds = retryAfterSeconds(decision);
  const refusal =
    decision.policy.name === 'failed-auth'
      ? new TooManyRequestsError(
          seconds,
          `Too many failed authentications from this address: its requests are refused for ${seconds} s, even with a valid key`,
        )
      : new TooManyRequestsError(seconds);
  return errorResponse(refusal, record.id, record.answerHeaders);
}
