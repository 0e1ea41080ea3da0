// The affiliate view of campaigns: the shared fields plus the affiliate's context, its commission
// and its own PersonalCoupon code. Its short link is the links module's (src/modules/links/catalogLinks.ts).
import { prisma } from '../../../platform/db';
import { BadRequestError, GoneError } from '../../../platform/errors';
import { builder, keyAuth } from '../../../schema/builder';
import { IN_CATALOG } from '../visibility';
import { affiliateOf } from '../../../schema/context';
import { itemQuery, listQuery } from '../../../schema/lists';
import { Commission } from '../../../schema/money';
import {
  CAMPAIGN_ORDER,
  CAMPAIGNS_PAGE,
  CampaignFields,
  campaignFilterArgs,
  campaignWhere,
  type CampaignFilter,
} from './common';
import { searchWork } from '../../../schema/complexity';

export const AffiliateCampaign = builder.prismaObject('Campaign', {
  variant: 'AffiliateCampaign',
  interfaces: [CampaignFields],
  description:
    "A campaign with the affiliate's context: its commission, its own PersonalCoupon code and its short link",
  fields: (t) => ({
    code: t.string({
      nullable: true,
      description:
        "GenericCoupon: the public code; PersonalCoupon: this affiliate's own code (null if none); Offer: null",
      select: (_args, context) => ({
        personalCoupons: {
          where: { affiliateId: affiliateOf(context) },
          select: { code: true },
        },
      }),
      resolve: (campaign) => {
        if (campaign.type === 'GenericCoupon') return campaign.code;
        if (campaign.type === 'PersonalCoupon') return campaign.personalCoupons[0]?.code ?? null;
        return null;
      },
    }),
    commission: t.field({
      type: Commission,
      resolve: (campaign) => ({ type: campaign.commissionType, stored: campaign.commissionValue }),
    }),
  }),
});

// The affiliate list takes a period only whole (contract: "Must be used together").
const affiliateCampaignArgs = builder.args((t) => ({
  ...campaignFilterArgs,
  startAt: t.field({
    type: 'DateTime',
    description: 'Period overlapping from; only together with endAt',
  }),
  endAt: t.field({
    type: 'DateTime',
    description: 'Period overlapping until; only together with startAt',
  }),
}));

function wholePeriod(filter: CampaignFilter): CampaignFilter {
  if (!filter.startAt !== !filter.endAt) {
    throw new BadRequestError('startAt and endAt must be used together');
  }
  return filter;
}

const AffiliateCampaignPage = listQuery('affiliateCampaigns', {
  item: AffiliateCampaign,
  envelope: 'meta',
  type: 'AffiliateCampaignPage',
  description:
    "GET /affiliate/campaigns: offers and coupons of visible brands, newest first, with the affiliate's context",
  auth: keyAuth('affiliate', 'campaigns:read'),
  page: CAMPAIGNS_PAGE,
  args: affiliateCampaignArgs,
  rows: prisma.campaign,
  order: CAMPAIGN_ORDER,
  work: ({ name }) => searchWork(name),
  where: (filter) => campaignWhere(wholePeriod(filter), new Date()),
});

itemQuery('affiliateCampaign', {
  item: AffiliateCampaign,
  type: 'AffiliateCampaignResult',
  description: "GET /affiliate/campaigns/{campaignId}: one campaign with the affiliate's context",
  auth: keyAuth('affiliate', 'campaigns:read'),
  idArg: 'campaignId',
  what: 'Campaign',
  rows: prisma.campaign,
  where: (id) => ({ id, ...IN_CATALOG }),
});

builder.queryField('affiliateOffers', (t) =>
  t.field({
    type: AffiliateCampaignPage,
    nullable: true,
    description:
      'GET /affiliate/offers, removed (contract, Versioning 4): always answers GONE (410); use affiliateCampaigns(types: [Offer])',
    deprecationReason: 'Removed: use affiliateCampaigns(types: [Offer])',
    authScopes: keyAuth('affiliate', 'campaigns:read'),
    resolve: () => {
      throw new GoneError(
        'GET /affiliate/offers was removed: use GET /affiliate/campaigns?types=Offer',
      );
    },
  }),
);
