// The events `triggerEvent` (and `npm run trigger`) can cause: the one list of them. Each is caused
// by its cause in causes.ts, which TypeScript requires for every event named here, and each is an
// event type its module declares (TypeScript holds the names to them).
import type { OrderEventType } from '../orders/eventTypes';
import type { EarningEventType, PayoutEventType } from '../payouts/eventTypes';

export const TRIGGER_EVENTS = {
  'order.created': 'Records an order of one of your brands, PENDING, as the back office does',
  'order.status_changed':
    'Moves an order to its next status (PENDING to APPROVED, APPROVED to PAID) or to the status given',
  'order.adjusted':
    "Corrects an unlocked order's amounts (the newest, or the one named) down by a tenth, as a partial return: reason AMOUNT_CORRECTED",
  'order.locked':
    'Locks an approved order (the newest, or the one named) as the lock pass does once its lock date passed: it becomes payable',
  'order.held':
    'Holds an order (your newest pending or approved one in no payout, or the one named) for review, or the hold reason given: its earnings are held, never paid while held',
  'order.released':
    'Releases your newest held order (or the one named): it is payable again once approved and locked',
  'order.clawback':
    "Takes back a paid order's earnings (your newest paid order, or the one named; all that is left, or the amount given) from your next payout, as a return after payment",
  'earning.created':
    "Writes a ledger entry for you: a BONUS of 10 in your newest order's currency, or the kind (BONUS, CPC, CREDIT, DEBIT), amount, currency and reason (note) given",
  'payout.scheduled':
    'Schedules a payout of your available money (approved and locked orders, and ledger entries, clawbacks included) of one currency (the one given, or the one with the most), if it reaches the minimum payout: it is in payment',
  'payout.processing': "Starts your newest scheduled payout's payment (or the one named)",
  'payout.paid':
    'Pays your newest scheduled or processing payout (or the one named): its orders become PAID',
  'payout.failed':
    'Fails your newest open payout (or the one named), with the reason in --note: its orders are available again',
  'payout.cancelled':
    'Cancels your newest open payout (or the one named): its orders are available again',
} as const satisfies Partial<Record<OrderEventType | PayoutEventType | EarningEventType, string>>;

export type TriggerEventType = keyof typeof TRIGGER_EVENTS;

export const TRIGGER_EVENT_TYPES = Object.keys(TRIGGER_EVENTS) as TriggerEventType[];

/** The GraphQL enum value of an event type: `order.created` is ORDER_CREATED. */
export function enumValueOf(type: TriggerEventType): string {
  return type.toUpperCase().replace(/\./g, '_');
}

export function isTriggerEventType(type: string): type is TriggerEventType {
  return Object.hasOwn(TRIGGER_EVENTS, type);
}

/**
 * Whether this service causes events on request: a development installation only (outside
 * production, with test keys). Elsewhere `triggerEvent` is not in the schema at all.
 */
export function servesTriggers(settings: { isProduction: boolean; keyEnv: string }): boolean {
  return !settings.isProduction && settings.keyEnv === 'test';
}
