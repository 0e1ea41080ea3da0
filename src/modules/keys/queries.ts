// listApiKeys and apiKeyEvents: the dashboard user's own keys and their audit trail.
import { prisma } from '../../platform/db';
import { builder, OPEN_USER_AUTH } from '../../schema/builder';
import { listOf } from '../../schema/complexity';
import { keyOwnedBy } from './access';

/** The newest events of a key that apiKeyEvents answers (revoked-use events come at most 1/min). */
export const MAX_KEY_EVENTS = 1_000;
/**
 * The keys listApiKeys answers: every key not revoked (at most MAX_KEYS_PER_USER), then the most
 * recently revoked, which only accumulate.
 */
export const MAX_LISTED_KEYS = 100;

builder.queryFields((t) => ({
  listApiKeys: t.withAuth(OPEN_USER_AUTH).prismaField({
    type: ['ApiKey'],
    description: `The dashboard user's keys (secrets are never listed): those not revoked, newest first, then the most recently revoked; ${MAX_LISTED_KEYS} keys at most`,
    complexity: listOf(MAX_LISTED_KEYS),
    resolve: async (query, _root, _args, context) => {
      return prisma.apiKey.findMany({
        ...query,
        where: { ownerId: context.openUser.id },
        orderBy: [
          { revokedAt: { sort: 'desc', nulls: 'first' } },
          { createdAt: 'desc' },
          { id: 'asc' },
        ],
        take: MAX_LISTED_KEYS,
      });
    },
  }),
  apiKeyEvents: t.withAuth(OPEN_USER_AUTH).prismaField({
    type: ['ApiKeyEvent'],
    description: `The audit trail of one of the user's keys, newest first (at most the newest ${MAX_KEY_EVENTS})`,
    args: { keyId: t.arg.id({ required: true }) },
    complexity: listOf(MAX_KEY_EVENTS),
    resolve: async (query, _root, args, context) => {
      const key = await keyOwnedBy(context.openUser.id, String(args.keyId));
      return prisma.apiKeyEvent.findMany({
        ...query,
        where: { keyId: key.id },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: MAX_KEY_EVENTS,
      });
    },
  }),
}));
