// The affiliate's short link on the catalog's affiliate types: a campaign's tracked link (a `Url`
// offer's is made on first need, so this read may write: the contract hands every Url offer its
// link) and a brand's page link.
import type { CampaignType, OfferType } from '../../generated/prisma/client';
import { logger } from '../../platform/logger';
import { builder } from '../../schema/builder';
import { affiliateOf } from '../../schema/context';
import { AffiliateBrand } from '../catalog/affiliateBrands';
import { AffiliateCampaign } from '../catalog/campaigns/affiliate';
import {
  campaignDedupeKey,
  campaignShortLink,
  getOrCreateShortUrl,
  shortUrlOf,
  type ShortLinkRequest,
} from './links';

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
 * does not redirect, so it is not handed out, and it is not replaced either: null. Answered
 * synchronously unless a link is made: a promise would make the executor complete every row of the
 * page asynchronously.
 */
function campaignShortUrl(
  campaign: CampaignLinkRow,
  affiliateId: string,
): string | null | Promise<string | null> {
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
  return getOrCreateShortUrl(request).then(({ shortUrl }) =>
    shortUrl.active ? shortUrlOf(shortUrl.urlCode) : null,
  );
}

builder.prismaObjectField(AffiliateCampaign, 'shortUrl', (t) =>
  t.string({
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
);

builder.prismaObjectField(AffiliateBrand, 'shortUrl', (t) =>
  t.string({
    nullable: true,
    description: "The affiliate's active brand-page short link, or null",
    select: (_args, context) => ({
      shortUrls: {
        where: { affiliateId: affiliateOf(context), linkType: 'BrandPage', active: true },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: 1,
        select: { urlCode: true },
      },
    }),
    resolve: (brand) => {
      const link = brand.shortUrls[0];
      return link ? shortUrlOf(link.urlCode) : null;
    },
  }),
);
