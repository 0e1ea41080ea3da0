// The pure rules of endpoint management: events, descriptions, how many endpoints. No I/O.
import { BadRequestError, shown } from '../../../platform/errors';
import { isWebhookEventType, WEBHOOK_EVENT_TYPES } from '../eventTypes';

/** Endpoints one user may have: plenty for real integrations, few enough to fan out cheaply. */
export const MAX_ENDPOINTS_PER_USER = 20;
const DESCRIPTION_MAX = 500;

/** The event types asked for, each once; at least one, all known. */
export function webhookEvents(requested: readonly string[]): string[] {
  if (requested.length === 0) {
    throw new BadRequestError(`events must name at least one of ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  }
  const unknown = requested.filter((type) => !isWebhookEventType(type));
  if (unknown.length) {
    throw new BadRequestError(
      `Unknown event type ${unknown.map(shown).join(', ')}; the events are ${WEBHOOK_EVENT_TYPES.join(', ')}`,
    );
  }
  return [...new Set(requested)];
}

/** A description trimmed; empty is none. */
export function webhookDescription(description: string | null | undefined): string | null {
  const trimmed = description?.trim() ?? '';
  if (trimmed.length > DESCRIPTION_MAX) {
    throw new BadRequestError(`description must be at most ${DESCRIPTION_MAX} characters`);
  }
  return trimmed || null;
}
