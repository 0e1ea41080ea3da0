// listPostbacks, postbackDeliveries, postbackPreset: the dashboard user's own. Each list answers a
// bounded number of rows, which the operation cost counts.
import { prisma } from '../../../platform/db';
import { builder } from '../../../schema/builder';
import { listOf } from '../../../schema/complexity';
import { pageSize, resolvePage, type PaginatedRule } from '../../../schema/pagination';
import { MAX_URL_LENGTH } from '../../../schema/inputLimits';
import { applyPreset } from '../presets';
import { NEWEST_DELIVERIES_FIRST, ownTargetsNewestFirst } from '../../../schema/deliveryTargets';
import { POSTBACK_MANAGEMENT, postbackOwnedBy } from './access';
import { asBadRequest, MAX_POSTBACKS_PER_USER } from './rules';
import { PostbackDelivery, PostbackDeliveryState, PostbackPreset, PostbackTracker } from './types';

/** The newest deliveries of a postback that postbackDeliveries answers. */
export const MAX_LISTED_POSTBACK_DELIVERIES = 100;
/**
 * A page of deliveries, each with its newest attempts, their requests and answers priced by size:
 * the default page at full width fits the operation cost; a larger one fits without the bodies.
 */
export const POSTBACK_DELIVERIES_PAGE: PaginatedRule = {
  defaultLimit: 20,
  maxLimit: MAX_LISTED_POSTBACK_DELIVERIES,
  aboveMax: 'clamp',
};

builder.queryFields((root) => {
  const t = root.withAuth(POSTBACK_MANAGEMENT);
  return {
    listPostbacks: t.prismaField({
      type: ['Postback'],
      description:
        "The dashboard user's postbacks, newest first (secrets are never listed); a failing or disabled one says so",
      complexity: listOf(MAX_POSTBACKS_PER_USER),
      resolve: (query, _root, _args, context) =>
        prisma.postback.findMany({ ...query, ...ownTargetsNewestFirst(context.affiliateUser.id) }),
    }),
    postbackDeliveries: t.prismaField({
      type: [PostbackDelivery],
      description: `A postback's newest deliveries, newest first, each with its newest attempts: the request sent (secrets redacted), the tracker's status, the start of its answer, the duration`,
      args: {
        postbackId: t.arg.id({ required: true }),
        since: t.arg({ type: 'DateTime', description: 'Only deliveries made at or after' }),
        state: t.arg({ type: PostbackDeliveryState, description: 'Only deliveries in this state' }),
        limit: t.arg.int({
          description: `How many: default ${POSTBACK_DELIVERIES_PAGE.defaultLimit}; values above ${MAX_LISTED_POSTBACK_DELIVERIES} are clamped to ${MAX_LISTED_POSTBACK_DELIVERIES}`,
          extensions: { pageRule: POSTBACK_DELIVERIES_PAGE },
        }),
      },
      complexity: (args) => ({ field: 1, multiplier: pageSize(args, POSTBACK_DELIVERIES_PAGE) }),
      resolve: async (query, _root, args, context) => {
        const postback = await postbackOwnedBy(context.affiliateUser.id, String(args.postbackId));
        return prisma.webhookDelivery.findMany({
          ...query,
          where: {
            postbackId: postback.id,
            ...(args.since && { createdAt: { gte: args.since } }),
            ...(args.state && { state: args.state }),
          },
          orderBy: NEWEST_DELIVERIES_FIRST,
          take: resolvePage(args, POSTBACK_DELIVERIES_PAGE).limit,
        });
      },
    }),
    postbackPreset: t.field({
      type: PostbackPreset,
      description:
        "A tracker's postback settings from its postback address: save them with createPostback as they are or edited (createPostback also takes the preset itself)",
      args: {
        tracker: t.arg({ type: PostbackTracker, required: true }),
        baseUrl: t.arg.string({
          required: true,
          description: "The tracker's postback address",
          extensions: { maxLength: MAX_URL_LENGTH },
        }),
        clickIdSubId: t.arg.int({
          description: 'The sub-ID (1-5) the click id rides in; default 1',
        }),
      },
      resolve: (_root, args) => ({
        tracker: args.tracker,
        ...asBadRequest(() => applyPreset(args.tracker, args.baseUrl, args.clickIdSubId ?? 1)),
      }),
    }),
  };
});
