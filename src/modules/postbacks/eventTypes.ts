// The events a postback fires on, and the events it is sent for beside them.
import type { OrderEventType } from '../orders/eventTypes';

/**
 * The order events a postback may take: written to the outbox by the database for each order
 * event and fanned out to postbacks by the trigger of migration postbacks. Every one must be an
 * order event of the outbox (the type says so).
 */
export const POSTBACK_EVENT_TYPES = [
  'order.created',
  'order.status_changed',
  'order.adjusted',
  'order.locked',
  'order.paid',
] as const satisfies readonly OrderEventType[];
export type PostbackEventType = (typeof POSTBACK_EVENT_TYPES)[number];

export function isPostbackEventType(type: string): type is PostbackEventType {
  return (POSTBACK_EVENT_TYPES as readonly string[]).includes(type);
}

/** `{event}` of a replayPostbacks delivery: the order as it is now. No postback takes it. */
export const REPLAY_EVENT_TYPE = 'postback.replay';

/** `{event}` of sendTestPostback's request. */
export const TEST_EVENT_TYPE = 'postback.test';
