// The order events of the outbox: the ones a webhook endpoint subscribes to and a postback fires
// on, each with what its body's `data` holds (src/outbox/eventTypes.ts).
import { typeNamesOf, type EventKind, type TypeNameOf } from '../../outbox/eventTypes';
import { ref, type Json } from '../../rest/openapi/json';

/** A change's reason and note, when the order event has one (docs/order-lifecycle.md). */
const reasonProperties = {
  reason: ref('OrderStatusReason'),
  note: { type: ['string', 'null'], description: "The brand's words beside the reason" },
};

const money = (description: string) => ({
  type: 'number',
  description: `${description}, in the order's \`currency\` with its decimals`,
});

/** `data`: the order as `GET /affiliate/orders/{orderId}` answers it, and what the event adds. */
function withOrder(properties: Record<string, Json> = {}, required: string[] = []) {
  return { required: ['order', ...required], properties: { order: ref('Order'), ...properties } };
}

/**
 * Written to the outbox by the database for each order event (migration order_lifecycle): `order.`
 * and the order event's type in lower case.
 */
export const ORDER_EVENTS = {
  name: 'order',
  label: 'order events',
  types: {
    'order.created': { summary: 'An order of the affiliate was recorded', data: withOrder() },
    'order.status_changed': {
      summary: "An order's status changed",
      description: "The order's status changed from `previousStatus` to the order's `status`",
      data: withOrder({ previousStatus: ref('OrderStatus'), ...reasonProperties }, [
        'previousStatus',
      ]),
    },
    'order.adjusted': {
      summary: "An order's amounts changed",
      description:
        "The order's amounts changed: the order has the new ones, `previous*` the old ones",
      data: withOrder(
        {
          ...reasonProperties,
          previousSaleAmount: money('The transaction value before the change'),
          previousEarnings: money('The earnings before the change'),
          saleAmountDelta: money('The new transaction value less the previous one'),
          earningsDelta: money('The new earnings less the previous ones'),
        },
        ['reason', 'previousSaleAmount', 'previousEarnings', 'saleAmountDelta', 'earningsDelta'],
      ),
    },
    'order.locked': {
      summary: 'An order locked',
      description: 'The order passed its lock date: it no longer changes, but for APPROVED to PAID',
      data: withOrder(),
    },
    'order.paid': {
      summary: 'An order was paid',
      description: 'The order was paid (an `order.status_changed` to PAID comes with it)',
      data: withOrder({ previousStatus: ref('OrderStatus') }, ['previousStatus']),
    },
    'order.held': {
      summary: 'An order was held',
      description:
        "The order was held for review, a dispute or a fraud check: its earnings are in the balance's `held`, never paid while held",
      data: withOrder(
        {
          heldReason: ref('HoldReason'),
          note: { type: ['string', 'null'], description: "The network's words beside the reason" },
        },
        ['heldReason'],
      ),
    },
    'order.released': {
      summary: 'An order was released from its hold',
      description:
        'The hold ended: the order is payable again once approved and locked (a rejection ends a hold too)',
      data: withOrder(),
    },
    'order.clawback': {
      summary: 'Money was taken back from a paid order',
      description:
        "A CLAWBACK entry takes back part or all of the paid order's earnings from the next payout (its `earning.created` comes with it)",
      data: withOrder(
        {
          earningId: { type: 'string', format: 'uuid', description: 'The CLAWBACK entry' },
          clawback: money('What it takes back (negative)'),
          note: { type: 'string', description: "The entry's reason" },
        },
        ['earningId', 'clawback', 'note'],
      ),
    },
  },
} satisfies EventKind;

export type OrderEventType = TypeNameOf<typeof ORDER_EVENTS>;
export const ORDER_EVENT_TYPES = typeNamesOf(ORDER_EVENTS);
