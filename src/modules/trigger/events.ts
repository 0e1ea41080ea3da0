// The events `triggerEvent` (and `npm run trigger`) can cause: the one list of them. Each is caused
// by its cause in causes.ts, which TypeScript requires for every event named here.

export const TRIGGER_EVENTS = {
  'order.created': 'Records an order of one of your brands, PENDING, as the back office does',
  'order.status_changed':
    'Moves an order to its next status (PENDING to APPROVED, APPROVED to PAID) or to the status given',
  'order.adjusted':
    "Corrects an unlocked order's amounts (the newest, or the one named) down by a tenth, as a partial return: reason AMOUNT_CORRECTED",
  'order.locked':
    'Locks an approved order (the newest, or the one named) as the lock pass does once its lock date passed: it becomes payable',
  'payout.scheduled':
    'Schedules a payout of your available (approved and locked) orders of one currency: they are in payment',
  'payout.processing': "Starts your newest scheduled payout's payment (or the one named)",
  'payout.paid':
    'Pays your newest scheduled or processing payout (or the one named): its orders become PAID',
  'payout.failed':
    'Fails your newest open payout (or the one named), with the reason in --note: its orders are available again',
  'payout.cancelled':
    'Cancels your newest open payout (or the one named): its orders are available again',
} as const;

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
