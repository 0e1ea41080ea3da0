// createPostback, updatePostback, deletePostback, redeliverPostback, replayPostbacks,
// sendTestPostback: the dashboard user's own postbacks, each checked as a whole when saved. Every
// one writes or calls out, so each counts against the management mutations' limit.
import type { Postback, Prisma } from '../../../generated/prisma/client';
import { prisma } from '../../../platform/db';
import { builder } from '../../../schema/builder';
import { deletedTarget, deleteTarget, enabledChange } from '../../../schema/deliveryTargets';
import { createWithinCap, type OwnershipCap } from '../../../schema/ownershipCaps';
import { freshSchedule } from '../../../outbox/retries';
import { announceDueDeliveries } from '../../../outbox/wakeUp';
import { applyPreset } from '../presets';
import { replayPostback, MAX_REPLAYED_ORDERS } from '../replay';
import type { PostbackSettings } from '../request';
import { settingsOf } from '../settings';
import { sendTestPostback } from '../testSend';
import {
  orderOwnedBy,
  POSTBACK_MANAGEMENT,
  postbackDeliveryOwnedBy,
  postbackOwnedBy,
} from './access';
import {
  asBadRequest,
  changesSettings,
  EMPTY_SETTINGS,
  MAX_POSTBACKS_PER_USER,
  mergedSettings,
  postbackEvents,
  postbackName,
  postbackScope,
  postbackStatuses,
} from './rules';
import { checkedScope, checkedSettings } from './saving';
import {
  CreatePostbackInput,
  PostbackDelivery,
  PostbackReplay,
  PostbackTestResult,
  UpdatePostbackInput,
} from './types';

/** The postback cap (src/schema/ownershipCaps.ts): postbacks not deleted. */
const POSTBACK_CAP: OwnershipCap = {
  max: MAX_POSTBACKS_PER_USER,
  refusal: `At most ${MAX_POSTBACKS_PER_USER} postbacks per user: delete one first`,
  count: (tx, ownerId) => tx.postback.count({ where: { ownerId, deletedAt: null } }),
};

/** The columns of the settings. */
function settingsData(settings: PostbackSettings) {
  return {
    ...settings,
    statusMap: settings.statusMap as Prisma.InputJsonObject,
    typeMap: settings.typeMap as Prisma.InputJsonObject,
  };
}

/** A new postback's columns: its preset applied, the fields given winning, checked as a whole. */
async function newPostback(ownerId: string, input: typeof CreatePostbackInput.$inferInput) {
  const name = postbackName(input.name);
  const { preset } = input;
  const {
    events: presetEvents = [],
    statuses: presetStatuses = [],
    ...presetSettings
  } = preset
    ? asBadRequest(() => applyPreset(preset.tracker, preset.baseUrl, preset.clickIdSubId ?? 1))
    : {};
  const events = postbackEvents(input.events ?? presetEvents);
  const statuses = postbackStatuses(input.statuses ?? presetStatuses);
  const base = { ...EMPTY_SETTINGS, ...presetSettings };
  const settings = await checkedSettings(mergedSettings(base, input));
  const scope = await checkedScope(ownerId, postbackScope(input.scope));
  return { ownerId, name, events, statuses, ...scope, ...settingsData(settings) };
}

/** The columns an update writes: the fields given, the postback checked as a whole again. */
async function postbackChange(postback: Postback, input: typeof UpdatePostbackInput.$inferInput) {
  const settings = changesSettings(input)
    ? settingsData(await checkedSettings(mergedSettings(settingsOf(postback), input)))
    : {};
  const scope = input.scope ? await checkedScope(postback.ownerId, postbackScope(input.scope)) : {};
  return {
    ...(input.name != null && { name: postbackName(input.name) }),
    ...(input.events != null && { events: postbackEvents(input.events) }),
    ...(input.statuses != null && { statuses: postbackStatuses(input.statuses) }),
    ...scope,
    ...settings,
    ...enabledChange(input.enabled, postback.enabled),
  };
}

builder.mutationField('createPostback', (t) =>
  t.withAuth(POSTBACK_MANAGEMENT).prismaField({
    type: 'Postback',
    description:
      'Adds a postback for order events of the affiliate user, its templates checked (macros, form) and its address checked as webhook endpoints are',
    managementLimit: true,
    args: { input: t.arg({ type: CreatePostbackInput, required: true }) },
    resolve: async (query, _root, { input }, context) => {
      const ownerId = context.affiliateUser.id;
      const data = await newPostback(ownerId, input);
      return createWithinCap(ownerId, POSTBACK_CAP, (tx) => tx.postback.create({ ...query, data }));
    },
  }),
);

builder.mutationField('updatePostback', (t) =>
  t.withAuth(POSTBACK_MANAGEMENT).prismaField({
    type: 'Postback',
    description:
      'Changes the fields given, the postback checked as a whole again; enabling clears a failing or disabled state (waiting deliveries resume)',
    managementLimit: true,
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdatePostbackInput, required: true }),
    },
    resolve: async (query, _root, { id, input }, context) => {
      const postback = await postbackOwnedBy(context.affiliateUser.id, String(id));
      return prisma.postback.update({
        ...query,
        where: { id: postback.id },
        data: await postbackChange(postback, input),
      });
    },
  }),
);

builder.mutationField('deletePostback', (t) =>
  t.withAuth(POSTBACK_MANAGEMENT).id({
    description:
      'Deletes a postback: nothing more is sent for it (its undelivered deliveries are dropped); answers its id',
    managementLimit: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, context) => {
      const { id } = await postbackOwnedBy(context.affiliateUser.id, String(args.id));
      return deleteTarget(
        'postbackId',
        id,
        prisma.postback.update({ where: { id }, data: deletedTarget() }),
      );
    },
  }),
);

builder.mutationField('redeliverPostback', (t) =>
  t.withAuth(POSTBACK_MANAGEMENT).prismaField({
    type: PostbackDelivery,
    description:
      'Sends a delivery again, now, with a fresh retry schedule ({delivery_id} stays; {attempt} starts at 1)',
    managementLimit: true,
    args: { deliveryId: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, context) => {
      const delivery = await postbackDeliveryOwnedBy(
        context.affiliateUser.id,
        String(args.deliveryId),
      );
      const [redelivery] = await prisma.$transaction([
        prisma.webhookDelivery.update({
          ...query,
          where: { id: delivery.id },
          data: freshSchedule(new Date()),
        }),
        announceDueDeliveries(prisma),
      ]);
      return redelivery;
    },
  }),
);

builder.mutationField('replayPostbacks', (t) =>
  t.withAuth(POSTBACK_MANAGEMENT).field({
    type: PostbackReplay,
    description: `Sends every order of the postback's scope placed in [since, until) again, once, as it is now ({event} postback.replay): at most ${MAX_REPLAYED_ORDERS} orders a call. A call for a window replayed within a day answers that replay and sends nothing (repeated: true) unless force is true; an order whose replay still waits is never queued twice`,
    managementLimit: true,
    args: {
      postbackId: t.arg.id({ required: true }),
      since: t.arg({ type: 'DateTime', required: true, description: 'Orders placed at or after' }),
      until: t.arg({ type: 'DateTime', required: true, description: 'Orders placed before' }),
      force: t.arg.boolean({
        description: 'Send the window again although it was replayed within a day; default false',
      }),
    },
    resolve: async (_root, args, context) => {
      const postback = await postbackOwnedBy(context.affiliateUser.id, String(args.postbackId));
      return replayPostback(postback, args.since, args.until, args.force ?? false);
    },
  }),
);

builder.mutationField('sendTestPostback', (t) =>
  t.withAuth(POSTBACK_MANAGEMENT).field({
    type: PostbackTestResult,
    description:
      "Renders the postback for one of the user's orders (or, without orderId, the documented sample; {event} postback.test) and sends it now, whether the postback is enabled or not; answers the request (secrets redacted) and the tracker's answer. Nothing is recorded",
    managementLimit: true,
    args: { id: t.arg.id({ required: true }), orderId: t.arg.id() },
    resolve: async (_root, args, context) => {
      const postback = await postbackOwnedBy(context.affiliateUser.id, String(args.id));
      const { orderId } = args;
      const order = orderId ? await orderOwnedBy(postback.ownerId, String(orderId)) : null;
      return sendTestPostback(postback, order?.id ?? null);
    },
  }),
);
