// triggerEvent: causes a back-office event for the dashboard user's own orders, on a development
// installation only (triggerEvents.ts: servesTriggers). In production and with KEY_ENV=live the field and
// its types are not registered, so that schema has no trace of them (docs/decisions.md).
import { config } from '../../platform/config';
import { OrderStatus, OrderStatusReason } from '../../generated/prisma/client';
import { LedgerKindEnum } from '../payouts/earnings';
import { HoldReasonEnum } from '../payouts/holds';
import { affiliateUserAuth, builder } from '../../schema/builder';
import { CAUSES, type Triggered } from './causes';
import {
  enumValueOf,
  servesTriggers,
  TRIGGER_EVENT_TYPES,
  TRIGGER_EVENTS,
  type TriggerEventType,
} from './triggerEvents';

function registerTriggerEvent(): void {
  const TriggerEventTypeEnum = builder.enumType('TriggerEventType', {
    description: 'An event triggerEvent causes (development installations only)',
    values: Object.fromEntries(
      TRIGGER_EVENT_TYPES.map((type) => [
        enumValueOf(type),
        { value: type, description: `\`${type}\`: ${TRIGGER_EVENTS[type]}` },
      ]),
    ) as Record<string, { value: TriggerEventType; description: string }>,
  });

  const TriggeredEvent = builder
    .objectRef<Triggered & { type: TriggerEventType }>('TriggeredEvent')
    .implement({
      description: 'What triggerEvent wrote',
      fields: (t) => ({
        type: t.expose('type', { type: TriggerEventTypeEnum }),
        orderId: t.exposeID('orderId', { nullable: true, description: 'The order it wrote' }),
        summary: t.exposeString('summary', { description: 'What it did, in a line' }),
      }),
    });

  builder.mutationField('triggerEvent', (t) =>
    t.withAuth(affiliateUserAuth('Triggered events')).field({
      type: TriggeredEvent,
      description:
        "Development only (absent in production and with KEY_ENV=live): causes an event of the user's " +
        'own orders by writing them as the back office does, so webhooks, postbacks and reports follow. ' +
        '`orderId` names the order to change (default: the newest one that can); `status` the status ' +
        'to set, with its `reason` and `note`; `linkCode` the link a new order came through, with its ' +
        "sub-IDs given or those of the link's latest click; `couponCode` the code it was placed with; `holdReason` why an order is held; `kind`, " +
        '`amount` and `currency` a ledger entry (and `amount` a clawback). `npm run trigger` calls it.',
      // No management limit: it manages no key or endpoint, and a developer's scripted walk (the
      // docs run one) triggers a dozen events a minute.
      args: {
        type: t.arg({ type: TriggerEventTypeEnum, required: true }),
        orderId: t.arg.id({ description: 'order.status_changed: the order to change' }),
        status: t.arg({
          type: OrderStatus,
          description: 'order.status_changed: the status to set (PAID comes with a payout)',
        }),
        reason: t.arg({
          type: OrderStatusReason,
          description:
            'order.status_changed: why (default for a rejection: OTHER, with a note saying it was triggered)',
        }),
        note: t.arg.string({
          description: 'order.status_changed: the reason in words (OTHER needs one)',
        }),
        linkCode: t.arg.string({
          description: "order.created: the user's short link the order came through (its brand's)",
        }),
        couponCode: t.arg.string({
          description:
            "order.created: the coupon code the order was placed with, the user's own (GET /affiliate/coupons; its brand's order)",
        }),
        subIds: t.arg.stringList({
          required: { list: false, items: false },
          description:
            'order.created: sub1 ... sub5 in order, as the brand reports them (null: none)',
        }),
        payoutId: t.arg.id({
          description: 'payout.*: the payout to move (default: the newest that can)',
        }),
        holdReason: t.arg({
          type: HoldReasonEnum,
          description: 'order.held: why (default REVIEW); `note` says more',
        }),
        kind: t.arg({
          type: LedgerKindEnum,
          description: 'earning.created: the kind of entry (default BONUS)',
        }),
        amount: t.arg.float({
          description:
            'earning.created: its amount in major units (default 10); order.clawback: how much to take back (default all that is left)',
        }),
        currency: t.arg.string({
          description:
            "earning.created: its currency (default your newest order's); payout.scheduled: the currency to pay",
        }),
        latestClick: t.arg.boolean({
          description:
            "order.created with linkCode: the sub-IDs of the link's latest counted click, where subIds gives none",
        }),
      },
      resolve: async (_root, args, context) => {
        const triggered = await CAUSES[args.type]({
          affiliateId: context.affiliateUser.id,
          orderId: args.orderId == null ? null : String(args.orderId),
          status: args.status ?? null,
          reason: args.reason ?? null,
          note: args.note ?? null,
          linkCode: args.linkCode ?? null,
          subIds: (args.subIds ?? []).map((value) => value ?? null),
          latestClick: args.latestClick ?? false,
          couponCode: args.couponCode ?? null,
          payoutId: args.payoutId == null ? null : String(args.payoutId),
          holdReason: args.holdReason ?? null,
          kind: args.kind ?? null,
          amount: args.amount ?? null,
          currency: args.currency ?? null,
        });
        return { type: args.type, ...triggered };
      },
    }),
  );
}

if (servesTriggers(config)) registerTriggerEvent();
