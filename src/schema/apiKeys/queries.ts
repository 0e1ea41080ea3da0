// listApiKeys and apiKeyEvents: the dashboard user's own keys and their audit trail.
import { prisma } from '../../db';
import { builder } from '../builder';
import { dashboardUser, ownKey } from './access';

/** The newest events of a key that apiKeyEvents answers (revoked-use events come at most 1/min). */
export const MAX_KEY_EVENTS = 1_000;

builder.queryFields((t) => ({
  listApiKeys: t.prismaField({
    type: ['ApiKey'],
    description: "The dashboard user's keys, newest first (secrets are never listed)",
    authScopes: { dashboardUser: true },
    resolve: async (query, _root, _args, context) => {
      const user = await dashboardUser(context.dashboardUserId);
      return prisma.apiKey.findMany({
        ...query,
        where: { ownerId: user.id },
        orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      });
    },
  }),
  apiKeyEvents: t.prismaField({
    type: ['ApiKeyEvent'],
    description: `The audit trail of one of the user's keys, newest first (at most the newest ${MAX_KEY_EVENTS})`,
    authScopes: { dashboardUser: true },
    args: { keyId: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, context) => {
      const key = await ownKey(context.dashboardUserId, String(args.keyId));
      return prisma.apiKeyEvent.findMany({
        ...query,
        where: { keyId: key.id },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: MAX_KEY_EVENTS,
      });
    },
  }),
}));
