// Rows for the affiliate campaign tests: affiliates with their keys, PersonalCoupon codes and
// the affiliate's short links.
import { prisma } from '../../src/db';
import { campaignShortLink, getOrCreateShortUrl } from '../../src/shortLinks/links';
import { createApiKey } from './factories';

/** An affiliate user and one v2 affiliate key (all affiliate scopes unless narrowed). */
export async function createAffiliate(scopes?: string[]) {
  const { apiKey, row } = await createApiKey('affiliate', scopes ? { scopes } : {});
  return { affiliateId: row.ownerId, apiKey };
}

export function createPersonalCode(campaignId: string, affiliateId: string, code: string) {
  return prisma.personalCouponCode.create({ data: { campaignId, affiliateId, code } });
}

/** The affiliate's link to a campaign, made the way the shortener makes it. */
export async function createCampaignLink(
  affiliateId: string,
  campaign: {
    id: string;
    organizationId: string;
    type: 'Offer' | 'GenericCoupon' | 'PersonalCoupon';
    url: string;
  },
) {
  const { shortUrl } = await getOrCreateShortUrl(campaignShortLink(affiliateId, campaign));
  return shortUrl;
}

export function campaignLinks(campaignId: string, affiliateId?: string) {
  return prisma.shortUrl.findMany({ where: { campaignId, ...(affiliateId && { affiliateId }) } });
}
