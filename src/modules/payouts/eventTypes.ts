// The outbox's payout event types, which webhook endpoints subscribe to.

/**
 * Written by the database triggers on "Payout" (migrations payouts, payout_progress), one per
 * status a payout reaches: `payout.` and the status in lower case; no postback takes them.
 */
export const PAYOUT_EVENT_TYPES = [
  'payout.scheduled',
  'payout.processing',
  'payout.paid',
  'payout.failed',
  'payout.cancelled',
] as const;
