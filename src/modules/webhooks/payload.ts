// The body of an order event: the order as `GET /affiliate/orders/{orderId}` answers it (read by
// src/modules/webhooks/eventAnswers.ts), the event type, the time of the change, for a status change
// (and a payment) the previous status, and what the order event says of the change: its reason,
// for an adjustment the amounts before it and the deltas, for a hold its reason, for a clawback its
// entry and amount; of a payout event, the payout as its route answers it; of a new ledger entry,
// the entry as its route answers it. Pure.
import type { OrderEvent as OrderEventRow } from '../../generated/prisma/client';
import { fromMinor } from '../../platform/currencies';
import type { WebhookBody } from './eventTypes';

/** A row as its route answers it, for the row's affiliate (src/modules/webhooks/eventAnswers.ts). */
export type RouteAnswer = (id: string, affiliateId: string) => Promise<unknown>;

/** How the bodies of events read what they carry: orders, payouts and ledger entries. */
export interface EventAnswers {
  order: RouteAnswer;
  payout: RouteAnswer;
  earning: RouteAnswer;
}

export interface OrderEvent {
  type: string;
  previousStatus: string | null;
  occurredAt: Date;
}

/** What an order event adds to the body: its reason when it has one, an adjustment's amounts. */
export function changeOf(
  event: Pick<
    OrderEventRow,
    | 'type'
    | 'reason'
    | 'note'
    | 'currency'
    | 'transactionValueMinor'
    | 'earningsMinor'
    | 'previousTransactionValueMinor'
    | 'previousEarningsMinor'
    | 'heldReason'
    | 'earningId'
    | 'clawbackMinor'
  >,
): Record<string, unknown> {
  if (event.type === 'HELD') return { heldReason: event.heldReason, note: event.note };
  if (event.type === 'CLAWBACK' && event.clawbackMinor !== null) {
    return {
      earningId: event.earningId,
      clawback: fromMinor(event.clawbackMinor, event.currency),
      note: event.note,
    };
  }
  const reason = event.reason === null ? {} : { reason: event.reason, note: event.note };
  if (
    event.type !== 'ADJUSTED' ||
    event.previousTransactionValueMinor === null ||
    event.previousEarningsMinor === null
  ) {
    return reason;
  }
  const money = (minor: number) => fromMinor(minor, event.currency);
  return {
    ...reason,
    previousSaleAmount: money(event.previousTransactionValueMinor),
    previousEarnings: money(event.previousEarningsMinor),
    saleAmountDelta: money(event.transactionValueMinor - event.previousTransactionValueMinor),
    earningsDelta: money(event.earningsMinor - event.previousEarningsMinor),
  };
}

export function orderEventBody(
  event: OrderEvent,
  order: unknown,
  change: Record<string, unknown> = {},
): WebhookBody {
  return {
    type: event.type,
    timestamp: event.occurredAt.toISOString(),
    data: {
      order,
      ...(event.previousStatus !== null && { previousStatus: event.previousStatus }),
      ...change,
    },
  };
}

/**
 * The body of a payout event, or of a new ledger entry: the payout (`data.payout`) or the entry
 * (`data.earning`) as its route answers it.
 */
export function rowEventBody(
  event: Omit<OrderEvent, 'previousStatus'>,
  data: { payout: unknown } | { earning: unknown },
): WebhookBody {
  return { type: event.type, timestamp: event.occurredAt.toISOString(), data };
}
