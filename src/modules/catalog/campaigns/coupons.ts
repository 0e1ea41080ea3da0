// The affiliate's own codes (GET /affiliate/coupons): its PersonalCoupon codes and the GenericCoupon
// codes of the brands it works with, as campaigns with the affiliate's context, so a coupon
// affiliate can match the `couponCode` of its orders to a campaign, its period and its status.
import { prisma } from '../../../platform/db';
import type { Prisma } from '../../../generated/prisma/client';
import { keyAuth } from '../../../schema/builder';
import { listQuery } from '../../../schema/lists';
import type { PageRule } from '../../../schema/pagination';
import { AffiliateCampaign } from './affiliate';
import { CAMPAIGN_ORDER, campaignFilterArgs, campaignWhere } from './common';

/** CAMPAIGN_ORDER in the affiliate's own coupons. */
const COUPON_ORDER = [
  { createdAt: 'desc' },
  { campaignId: 'desc' },
] satisfies Prisma.AffiliateCouponOrderByWithRelationInput[];

/** Larger pages than the catalog's: a voucher site holds many codes and reconciles them all. */
export const COUPONS_PAGE: PageRule = { defaultLimit: 20, maxLimit: 100, aboveMax: 'clamp' };

const couponFilterArgs = {
  types: campaignFilterArgs.types,
  organizationId: campaignFilterArgs.organizationId,
  status: campaignFilterArgs.status,
};

listQuery('affiliateCoupons', {
  item: AffiliateCampaign,
  envelope: 'meta',
  type: 'AffiliateCouponPage',
  description:
    "GET /affiliate/coupons: the key's affiliate's PersonalCoupon codes and the GenericCoupon codes of its brands (`code`), with campaign, period and status, newest first",
  auth: keyAuth('affiliate', 'campaigns:read'),
  page: COUPONS_PAGE,
  args: couponFilterArgs,
  rows: prisma.campaign,
  order: CAMPAIGN_ORDER,
  // The coupons whose code is the affiliate's to use, of brands the catalog shows (AffiliateCoupon:
  // a PersonalCoupon with a code of its own, a GenericCoupon of a brand it has terms with).
  where: (filter, { affiliateId }) => ({
    AND: [campaignWhere(filter, new Date()), { affiliates: { some: { affiliateId } } }],
  }),
  // Newest first, the affiliate's coupons are a few in a hundred campaigns: a deep page walks
  // its own rows (each keeps its campaign's createdAt) instead of the catalog's.
  findIds:
    (filter, { affiliateId }) =>
    async (page) => {
      const found = await prisma.affiliateCoupon.findMany({
        where: { affiliateId, campaign: campaignWhere(filter, new Date()) },
        orderBy: COUPON_ORDER,
        skip: page.skip,
        take: page.limit,
        select: { campaignId: true },
      });
      return found.map((coupon) => coupon.campaignId);
    },
});
