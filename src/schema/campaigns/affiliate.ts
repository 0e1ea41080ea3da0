// The affiliate view of campaigns: the shared fields plus the affiliate's context, its commission,
// its own PersonalCoupon code and its short link (a `Url` offer's link is created on first need).
import { prisma } from '../../platform/db';
import { BadRequestError, GoneError } from '../../platform/errors';
import type { CampaignType, OfferType } from '../../generated/prisma/client';
import { logger } from '../../platform/logger';
import {
  campaignDedupeKey,
  campaignShortLink,
  getOrCreateShortUrl,
  shortUrlOf,
  type ShortLinkRequest,
} from '../../shortLinks/links';
import { builder, keyAuth } from '../builder';
import { IN_CATALOG } from '../../catalog';
import { affiliateOf } from '../context';
import { itemQuery, listQuery } from '../lists';
import { Commission } from '../money';
import {
  CAMPAIGN_ORDER,
  CAMPAIGNS_PAGE,
  CampaignFields,
  campaignFilterArgs,
  campaignWhere,
  type CampaignFilter,
} from './common';
import { searchWork } from '../complexity';

interface CampaignLinkRow {
  id: string;
  organizationId: string;
  type: CampaignType;
  offerType: OfferType | null;
  url: string;
  shortUrls: { urlCode: string; dedupeKey: string; active: boolean }[];
}

/**
 * The affiliate's link to a campaign: the existing one, or for a `Url` offer one made now
 * (`Spreadsheet` offers and coupons get theirs through the shortener only). A deactivated link
 * does not redirect, so it is not handed out, and it is not replaced either: null.
 */
async function campaignShortUrl(campaign: CampaignLinkRow, affiliateId: string) {
  const existing = campaign.shortUrls.find(
    (link) => link.dedupeKey === campaignDedupeKey(campaign.id),
  );
  if (existing) return existing.active ? shortUrlOf(existing.urlCode) : null;
  if (campaign.type !== 'Offer' || campaign.offerType !== 'Url') return null;
  let request: ShortLinkRequest;
  try {
    request = campaignShortLink(affiliateId, campaign);
  } catch (error) {
    // A campaign whose url is not a web address gets no link; the rest of the page still answers.
    logger.warn({ err: error, campaignId: campaign.id }, 'campaign url cannot be linked');
    return null;
  }
  const { shortUrl } = await getOrCreateShortUrl(request);
  return shortUrl.active ? shortUrlOf(shortUrl.urlCode) : null;
}

const AffiliateCampaign = builder.prismaObject('Campaign', {
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
        type: true,
        code: true,
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
      select: { commissionType: true, commissionValue: true },
      resolve: (campaign) => ({ type: campaign.commissionType, stored: campaign.commissionValue }),
    }),
    shortUrl: t.string({
      nullable: true,
      description:
        "The affiliate's short link: made automatically for Url offers; for Spreadsheet offers and coupons only once created through POST /affiliate/shortener/url",
      select: (_args, context) => ({
        id: true,
        organizationId: true,
        type: true,
        offerType: true,
        url: true,
        shortUrls: {
          where: { affiliateId: affiliateOf(context), linkType: { in: ['Offer', 'Coupon'] } },
          select: { urlCode: true, dedupeKey: true, active: true },
        },
      }),
      resolve: (campaign, _args, context) => campaignShortUrl(campaign, affiliateOf(context)),
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
