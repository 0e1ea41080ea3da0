// The affiliate's channels (promotion media). A channel belongs to the affiliate user, not to an
// organization; WhiteLabel channels are never listed or fetched (contract, Channel).
import { queryFromInfo } from '@pothos/plugin-prisma';
import { prisma } from '../db';
import type { Prisma } from '../generated/prisma/client';
import { countedListOf, singleOf } from './envelopes';
import { affiliateIdOf } from './affiliate';
import { builder, keyAuth } from './builder';
import { notFound } from '../errors';
import { isUuid } from './scalars';

/** The contract returns at most this many channels. */
export const CHANNELS_LIMIT = 20;

export const CHANNEL_ORDER = [
  { createdAt: 'asc' },
  { id: 'asc' },
] satisfies Prisma.ChannelOrderByWithRelationInput[];

/** The affiliate's channels that may be shown: every type but WhiteLabel. */
export function listedChannelWhere(affiliateId: string): Prisma.ChannelWhereInput {
  return { userId: affiliateId, type: { isWhiteLabel: false } };
}

/** One listed channel of the affiliate; a non-UUID id cannot exist, so it is not found either. */
export function listedChannelById(
  affiliateId: string,
  channelId: string,
): Prisma.ChannelWhereInput {
  if (!isUuid(channelId)) throw notFound('Channel', channelId);
  return { id: channelId.toLowerCase(), ...listedChannelWhere(affiliateId) };
}

export const AffiliateChannel = builder.prismaObject('Channel', {
  variant: 'AffiliateChannel',
  description: "A promotion medium of the key's affiliate",
  // Only the columns the query asks for are read (brands embed channels too).
  select: { id: true },
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.string({
      description: "The channel type's name",
      select: { type: { select: { name: true } } },
      resolve: (channel) => channel.type.name,
    }),
    active: t.exposeBoolean('active'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const AffiliateChannelList = countedListOf('AffiliateChannelList', AffiliateChannel);
const AffiliateChannelResult = singleOf('AffiliateChannelResult', AffiliateChannel);

builder.queryFields((t) => ({
  affiliateChannels: t.field({
    type: AffiliateChannelList,
    description: `GET /affiliate/channels: the affiliate's channels, oldest first, at most ${CHANNELS_LIMIT}; count = number returned`,
    authScopes: keyAuth('affiliate', 'channels:read'),
    complexity: { field: 1, multiplier: CHANNELS_LIMIT },
    resolve: async (_root, _args, context, info) => {
      const data = await prisma.channel.findMany({
        ...queryFromInfo({ context, info, path: ['data'] }),
        where: listedChannelWhere(affiliateIdOf(context)),
        orderBy: CHANNEL_ORDER,
        take: CHANNELS_LIMIT,
      });
      return { data, count: data.length };
    },
  }),
  affiliateChannel: t.field({
    type: AffiliateChannelResult,
    description: "GET /affiliate/channels/{channelId}: one of the affiliate's channels",
    authScopes: keyAuth('affiliate', 'channels:read'),
    args: { channelId: t.arg.id({ required: true }) },
    resolve: async (_root, args, context, info) => {
      const data = await prisma.channel.findFirst({
        ...queryFromInfo({ context, info, path: ['data'] }),
        where: listedChannelById(affiliateIdOf(context), String(args.channelId)),
      });
      if (!data) throw notFound('Channel', String(args.channelId));
      return { data };
    },
  }),
}));
