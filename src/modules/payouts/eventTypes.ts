// The outbox's payout and ledger events, which webhook endpoints subscribe to (no postback takes
// them), each with what its body's `data` holds (src/outbox/eventTypes.ts).
import {
  typeNamesOf,
  type EventKind,
  type EventTypeDeclaration,
  type TypeNameOf,
} from '../../outbox/eventTypes';
import { ref } from '../../rest/openapi/json';

/** A payout event: `data.payout` is the payout as `GET /affiliate/payouts/{payoutId}` answers it. */
function payoutEvent(summary: string, detail: string): EventTypeDeclaration {
  return {
    summary,
    description: `${summary}: ${detail}`,
    data: { required: ['payout'], properties: { payout: ref('Payout') } },
  };
}

/**
 * Written by the database triggers on "Payout" (migrations payouts, payout_progress), one per
 * status a payout reaches: `payout.` and the status in lower case.
 */
export const PAYOUT_EVENTS = {
  name: 'payout',
  label: 'payout events',
  types: {
    'payout.scheduled': payoutEvent(
      'A payout of the affiliate was scheduled',
      'its orders are in payment',
    ),
    'payout.processing': payoutEvent(
      "A payout's payment started",
      'the payout is PROCESSING since its `initiatedAt`',
    ),
    'payout.paid': payoutEvent(
      'A payout of the affiliate was paid',
      'its orders are PAID (each with its order.status_changed)',
    ),
    'payout.failed': payoutEvent(
      'A payout of the affiliate failed',
      'its `failureReason` says why, and its orders are available for another payout',
    ),
    'payout.cancelled': payoutEvent(
      'A payout of the affiliate was cancelled',
      'the network changed its mind before paying; its orders are available for another payout',
    ),
  },
} satisfies EventKind;

export type PayoutEventType = TypeNameOf<typeof PAYOUT_EVENTS>;
export const PAYOUT_EVENT_TYPES = typeNamesOf(PAYOUT_EVENTS);

/** Written by the database trigger on "Earning" (migration ledger) for each new ledger entry. */
export const EARNING_EVENTS = {
  name: 'earning',
  label: 'ledger events',
  types: {
    'earning.created': {
      summary: 'A ledger entry of the affiliate was written',
      description:
        'A ledger entry was written (a bonus, pay per click, a credit, a debit or a clawback): paid through the next payout, counted in the balance',
      // The entry as `GET /affiliate/earnings/{earningId}` answers it.
      data: { required: ['earning'], properties: { earning: ref('Earning') } },
    },
  },
} satisfies EventKind;

export type EarningEventType = TypeNameOf<typeof EARNING_EVENTS>;
export const EARNING_EVENT_TYPES = typeNamesOf(EARNING_EVENTS);
