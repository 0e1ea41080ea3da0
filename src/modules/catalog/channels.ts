// The affiliate's channels (promotion media). A channel belongs to the affiliate user, not to an
// organization; WhiteLabel channels are never listed or fetched (contract, Channel).
import { prisma } from '../../platform/db';
import type { Prisma } from '../../generated/prisma/client';
import { builder, keyAuth } from '../../schema/builder';
import { itemQuery, listQuery } from '../../schema/lists';

/** The affiliate's channels that may be shown: every type but WhiteLabel. */
export function listedChannelWhere(affiliateId: string): Prisma.ChannelWhereInput {
  return { userId: affiliateId, type: { isWhiteLabel: false } };
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

/** The contract answers at most this many channels, without pages (a brand's enrolled ones too). */
export const CHANNELS_ANSWERED = 20;

listQuery('affiliateChannels', {
  item: AffiliateChannel,
  envelope: 'count',
  type: 'AffiliateChannelList',
  description: `GET /affiliate/channels: the affiliate's channels, oldest first, at most ${CHANNELS_ANSWERED}; count = number returned`,
  auth: keyAuth('affiliate', 'channels:read'),
  page: { fixed: CHANNELS_ANSWERED },
  rows: prisma.channel,
  order: [{ createdAt: 'asc' }, { id: 'asc' }],
  where: (_args, { affiliateId }) => listedChannelWhere(affiliateId),
});

itemQuery('affiliateChannel', {
  item: AffiliateChannel,
  type: 'AffiliateChannelResult',
  description: "GET /affiliate/channels/{channelId}: one of the affiliate's channels",
  auth: keyAuth('affiliate', 'channels:read'),
  idArg: 'channelId',
  what: 'Channel',
  rows: prisma.channel,
  where: (id, { affiliateId }) => ({ id, ...listedChannelWhere(affiliateId) }),
});
