// Campaigns (offers and coupons): what the partner and affiliate views share. The enums, the
// computed status, the list filter and order, and the `Campaign` interface.
import type { InputShapeFromFields } from '@pothos/core';
import { CampaignType, OfferType, type Prisma } from '../../../generated/prisma/client';
import { OrganizationSummary } from '../brands';
import { builder } from '../../../schema/builder';
import { IN_CATALOG } from '../visibility';
import { containing, dateRange } from '../../../schema/filters';
import type { PageRule } from '../../../schema/pagination';

export const CAMPAIGNS_PAGE: PageRule = { defaultLimit: 10, maxLimit: 20, aboveMax: 'clamp' };

/** Campaign lists: newest first. */
export const CAMPAIGN_ORDER = [
  { createdAt: 'desc' },
  { id: 'desc' },
] satisfies Prisma.CampaignOrderByWithRelationInput[];

export const CAMPAIGN_STATUSES = ['onTime', 'expired', 'scheduled'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

builder.enumType(CampaignType, { name: 'CampaignType' });
builder.enumType(OfferType, { name: 'OfferType' });
const CampaignStatusEnum = builder.enumType('CampaignStatus', {
  description:
    'onTime: inside its period; expired: period.endAt has passed; scheduled: period.startAt is ahead',
  values: CAMPAIGN_STATUSES,
});

/** A campaign's status at `now`, computed from its period. */
export function campaignStatus(period: { startAt: Date; endAt: Date }, now: Date): CampaignStatus {
  if (now < period.startAt) return 'scheduled';
  if (now > period.endAt) return 'expired';
  return 'onTime';
}

const STATUS_WHERE: Record<CampaignStatus, (now: Date) => Prisma.CampaignWhereInput> = {
  scheduled: (now) => ({ startAt: { gt: now } }),
  expired: (now) => ({ endAt: { lt: now } }),
  onTime: (now) => ({ startAt: { lte: now }, endAt: { gte: now } }),
};

export const campaignFilterArgs = builder.args((t) => ({
  types: t.field({ type: [CampaignType], description: 'Campaign types' }),
  offerType: t.field({
    type: [OfferType],
    description: 'Offer types; narrows offers only. Omitted: all offers',
  }),
  organizationId: t.field({ type: 'UUID', description: 'One brand' }),
  organizationIds: t.field({ type: ['UUID'], description: 'Several brands' }),
  name: t.string({ description: 'Part of the campaign name, any case' }),
  status: t.field({ type: [CampaignStatusEnum], description: 'Statuses at request time' }),
  categories: t.stringList({ description: 'Campaigns in any of these categories' }),
  isHighlight: t.boolean(),
  startAt: t.field({ type: 'DateTime', description: 'Period overlapping from' }),
  endAt: t.field({ type: 'DateTime', description: 'Period overlapping until' }),
}));

export type CampaignFilter = InputShapeFromFields<typeof campaignFilterArgs>;

/** Campaigns of visible brands matching the filter; every filter narrows the list (AND). */
export function campaignWhere(filter: CampaignFilter, now: Date): Prisma.CampaignWhereInput {
  const and: Prisma.CampaignWhereInput[] = [IN_CATALOG];
  // offerType narrows offers; alone, it asks for offers of those types only.
  const types = filter.types?.length
    ? filter.types
    : filter.offerType?.length
      ? ['Offer' as const]
      : [];
  if (types.length) and.push({ type: { in: types } });
  if (filter.offerType?.length) {
    and.push({ OR: [{ type: { not: 'Offer' } }, { offerType: { in: filter.offerType } }] });
  }
  if (filter.organizationId) and.push({ organizationId: filter.organizationId });
  if (filter.organizationIds?.length) and.push({ organizationId: { in: filter.organizationIds } });
  if (filter.name) and.push({ name: containing(filter.name) });
  if (filter.status?.length) {
    and.push({ OR: filter.status.map((status) => STATUS_WHERE[status](now)) });
  }
  if (filter.categories?.length) and.push({ categories: { hasSome: filter.categories } });
  if (typeof filter.isHighlight === 'boolean') and.push({ isHighlight: filter.isHighlight });
  // The period filter keeps campaigns whose period overlaps [startAt, endAt].
  const range = dateRange(filter.startAt, filter.endAt);
  if (range?.lte) and.push({ startAt: { lte: range.lte } });
  if (range?.gte) and.push({ endAt: { gte: range.gte } });
  return { AND: and };
}

const CampaignPeriod = builder
  .objectRef<{ startAt: Date; endAt: Date }>('CampaignPeriod')
  .implement({
    fields: (t) => ({
      startAt: t.expose('startAt', { type: 'DateTime' }),
      endAt: t.expose('endAt', { type: 'DateTime' }),
    }),
  });

/** Fields every view of a campaign shares. */
export const CampaignFields = builder.prismaInterface('Campaign', {
  name: 'Campaign',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    type: t.expose('type', { type: CampaignType }),
    offerType: t.expose('offerType', { type: OfferType, nullable: true }),
    url: t.exposeString('url'),
    organizationId: t.exposeID('organizationId'),
    organization: t.relation('organization', { type: OrganizationSummary }),
    categories: t.exposeStringList('categories'),
    period: t.field({
      type: CampaignPeriod,
      resolve: ({ startAt, endAt }) => ({ startAt, endAt }),
    }),
    status: t.field({
      type: CampaignStatusEnum,
      resolve: (campaign) => campaignStatus(campaign, new Date()),
    }),
    isHighlight: t.exposeBoolean('isHighlight'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});
