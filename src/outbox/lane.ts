// The outbox: events captured by the database in the writer's transaction (its triggers write each
// event and one delivery per target that takes it, and wake the dispatchers at commit), delivered
// by one dispatcher (src/outbox/dispatcher.ts), with one lane per kind of target: webhook endpoints
// (src/modules/webhooks/webhookLane.ts) and postbacks (src/modules/postbacks/lane.ts). Nothing here
// imports a module: a module brings its lane and starts its dispatcher.
//
// A lane: the deliveries to one kind of target. The dispatcher claims, sends, retries, records and
// disables the same way for every lane; a lane says only what differs: which column names its
// target, how an attempt's request is built and judged, and what its target keeps about failing.
import type { Counter, Histogram } from 'prom-client';
import type { Prisma } from '../generated/prisma/client';
import { isSuccess, type AttemptOutcome, type OutgoingRequest } from './send';

/** A delivery claimed by a dispatcher. */
export interface ClaimedDelivery {
  id: string;
  eventId: string;
  /** The endpoint's or the postback's id. */
  targetId: string;
  orderId: string | null;
  /** Its place in the outbox: a later event's delivery has a greater one. */
  seq: bigint;
  /** Attempts of its current schedule made before this claim's. */
  attemptCount: number;
}

/** The request of an attempt as its owner is shown it, secrets redacted. */
export interface ShownRequest {
  method: string;
  url: string;
  body: string | null;
}

export interface PreparedAttempt {
  request: OutgoingRequest;
  /** Kept with the attempt; null when the lane keeps none (a webhook's body is its event's). */
  shown: ShownRequest | null;
  /** Values the request carried that the kept answer must not show: a receiver may echo them. */
  secrets?: readonly string[];
}

/** The shortest start of a secret that a cut answer's end is taken for. */
const SECRET_START_SHOWN = 4;

/**
 * A kept answer without the secrets its request carried: each one REDACTED, and the start of one
 * that the answer's cut leaves at its end removed.
 */
export function withoutSecrets(answer: string, secrets: readonly string[]): string {
  let shown = answer;
  const longestFirst = [...secrets].filter(Boolean).sort((a, b) => b.length - a.length);
  for (const secret of longestFirst) shown = shown.split(secret).join('REDACTED');
  for (const secret of longestFirst) {
    for (
      let length = Math.min(secret.length - 1, shown.length);
      length >= SECRET_START_SHOWN;
      length--
    ) {
      if (shown.endsWith(secret.slice(0, length))) {
        shown = `${shown.slice(0, -length)}REDACTED`;
        break;
      }
    }
  }
  return shown;
}

/** Why a delivery cannot be sent, in words for its owner (recorded as the attempt's error). */
export class UnsendableDelivery extends Error {}

export type Verdict = { delivered: true } | { delivered: false; error: string };

/** What happens to a target when a delivery ends. */
export type TargetChange =
  | { kind: 'recovered' }
  | { kind: 'failing'; failingSince: Date }
  | { kind: 'disabled'; failingSince: Date; disabledAt: Date };

export interface DeliveryLane<Target extends { failingSince: Date | null }> {
  /** Names the lane in logs. */
  name: string;
  /** The column of "WebhookDelivery" naming the target, and the target's table. */
  targetColumn: 'endpointId' | 'postbackId';
  targetTable: 'WebhookEndpoint' | 'Postback';
  loadTarget(id: string): Promise<Target>;
  /** The attempt's request; throws UnsendableDelivery when it cannot be built. */
  prepare(delivery: ClaimedDelivery, target: Target, now: Date): Promise<PreparedAttempt>;
  /** Whether an answer delivers it. */
  judge(outcome: AttemptOutcome, target: Target): Verdict;
  /** Records a change of the target's failing state, in the attempt's transaction. */
  changeTarget(tx: Prisma.TransactionClient, targetId: string, change: TargetChange): Promise<void>;
  attempts: Counter<'outcome'>;
  duration: Histogram;
  /** Whether this lane's dispatchers delete the outbox's old finished history (one lane does). */
  prunesHistory: boolean;
}

/** Any 2xx delivers; anything else fails with the sender's reason. */
export function judgeByStatus(outcome: AttemptOutcome): Verdict {
  return isSuccess(outcome.statusCode)
    ? { delivered: true }
    : { delivered: false, error: outcome.error ?? `answered HTTP ${outcome.statusCode}` };
}

/** A target's columns after a change (the same on endpoints and postbacks); `enableWith` names the mutation that enables it again. */
export function failingStateData(change: TargetChange, enableWith: string) {
  switch (change.kind) {
    case 'recovered':
      return { failingSince: null };
    case 'failing':
      return { failingSince: change.failingSince };
    case 'disabled':
      return {
        failingSince: change.failingSince,
        enabled: false,
        disabledAt: change.disabledAt,
        disabledReason: `Every delivery failed since ${change.failingSince.toISOString()}; enable it again with ${enableWith}`,
      };
  }
}
