// createPostback, updatePostback, deletePostback, redeliverPostback, replayPostbacks,
// sendTestPostback: the dashboard user's own postbacks, each checked as a whole when saved. Every
// one writes or calls out, so each counts against the management mutations' limit.
import type { Prisma } from '../../../generated/prisma/client';
import { prisma } from '../../../platform/db';
import { builder } from '../../../schema/builder';
import { createWithinCap, type OwnershipCap } from '../../secrets/ownershipCaps';
import { freshSchedule } from '../../../outbox/retries';
import { announceDueDeliveries } from '../../../outbox/wakeUp';
import { applyPreset } from '../presets';
import { replayPostback, MAX_REPLAYED_ORDERS } from '../replay';
import type { PostbackSettings } from '../request';
import { settingsOf } from '../settings';
import { sendTestPostback } from '../testSend';
import { orderOwnedBy, postbackDeliveryOwnedBy, postbackOwnedBy, postbackOwner } from './access';
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

/** The postback cap (src/modules/secrets/ownershipCaps.ts): postbacks not deleted. */
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

builder.mutationFields((t) => ({
  createPostback: t.prismaField({
    type: 'Postback',
    description:
      'Adds a postback for order events of the affiliate user, its templates checked (macros, form) and its address checked as webhook endpoints are',
    authScopes: { dashboardUser: true },
    managementLimit: true,
    args: { input: t.arg({ type: CreatePostbackInput, required: true }) },
    resolve: async (query, _root, { input }, context) => {
      const user = await postbackOwner(context.dashboardUserId);
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
      const scope = await checkedScope(user.id, postbackScope(input.scope));
      return createWithinCap(user.id, POSTBACK_CAP, (tx) =>
        tx.postback.create({
          ...query,
          data: { ownerId: user.id, name, events, statuses, ...scope, ...settingsData(settings) },
        }),
      );
    },
  }),
  updatePostback: t.prismaField({
    type: 'Postback',
    description:
      'Changes the fields given, the postback checked as a whole again; enabling clears a failing or disabled state (waiting deliveries resume)',
    authScopes: { dashboardUser: true },
    managementLimit: true,
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdatePostbackInput, required: true }),
    },
    resolve: async (query, _root, { id, input }, context) => {
      const user = await postbackOwner(context.dashboardUserId);
      const postback = await postbackOwnedBy(user.id, String(id));
      const settings = changesSettings(input)
        ? settingsData(await checkedSettings(mergedSettings(settingsOf(postback), input)))
        : {};
      const scope = input.scope ? await checkedScope(user.id, postbackScope(input.scope)) : {};
      const enabledChange =
        input.enabled === true
          ? { enabled: true, failingSince: null, disabledAt: null, disabledReason: null }
          : input.enabled === false && postback.enabled
            ? { enabled: false, disabledAt: new Date(), disabledReason: null }
            : {};
      return prisma.postback.update({
        ...query,
        where: { id: postback.id },
        data: {
          ...(input.name != null && { name: postbackName(input.name) }),
          ...(input.events != null && { events: postbackEvents(input.events) }),
          ...(input.statuses != null && { statuses: postbackStatuses(input.statuses) }),
          ...scope,
          ...settings,
          ...enabledChange,
        },
      });
    },
  }),
  deletePostback: t.id({
    description:
      'Deletes a postback: nothing more is sent for it (its undelivered deliveries are dropped); answers its id',
    authScopes: { dashboardUser: true },
    managementLimit: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, context) => {
      const user = await postbackOwner(context.dashboardUserId);
      const postback = await postbackOwnedBy(user.id, String(args.id));
      // What was delivered stays as history; nothing else will ever be sent.
      await prisma.$transaction([
        prisma.postback.update({
          where: { id: postback.id },
          data: { deletedAt: new Date(), enabled: false },
        }),
        prisma.webhookDelivery.deleteMany({
          where: { postbackId: postback.id, state: { not: 'DELIVERED' } },
        }),
      ]);
      return postback.id;
    },
  }),
  redeliverPostback: t.prismaField({
    type: PostbackDelivery,
    description:
      'Sends a delivery again, now, with a fresh retry schedule ({delivery_id} stays; {attempt} starts at 1)',
    authScopes: { dashboardUser: true },
    managementLimit: true,
    args: { deliveryId: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, context) => {
      const user = await postbackOwner(context.dashboardUserId);
      const delivery = await postbackDeliveryOwnedBy(user.id, String(args.deliveryId));
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
  replayPostbacks: t.field({
    type: PostbackReplay,
    description: `Sends every order of the postback's scope placed in [since, until) again, once, as it is now ({event} postback.replay): at most ${MAX_REPLAYED_ORDERS} orders a call. A call for a window replayed within a day answers that replay and sends nothing (repeated: true) unless force is true; an order whose replay still waits is never queued twice`,
    authScopes: { dashboardUser: true },
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
      const user = await postbackOwner(context.dashboardUserId);
      const postback = await postbackOwnedBy(user.id, String(args.postbackId));
      return replayPostback(postback, args.since, args.until, args.force ?? false);
    },
  }),
  sendTestPostback: t.field({
    type: PostbackTestResult,
    description:
      "Renders the postback for one of the user's orders (or, without orderId, the documented sample; {event} postback.test) and sends it now, whether the postback is enabled or not; answers the request (secrets redacted) and the tracker's answer. Nothing is recorded",
    authScopes: { dashboardUser: true },
    managementLimit: true,
    args: { id: t.arg.id({ required: true }), orderId: t.arg.id() },
    resolve: async (_root, args, context) => {
      const user = await postbackOwner(context.dashboardUserId);
      const postback = await postbackOwnedBy(user.id, String(args.id));
      const order = args.orderId ? await orderOwnedBy(user.id, String(args.orderId)) : null;
      return sendTestPostback(postback, order?.id ?? null);
    },
  }),
}));
