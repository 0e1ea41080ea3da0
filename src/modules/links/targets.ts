// What a creation body asks a link to lead to, and the checked link it stands for: a campaign's
// link (featureId), a brand's page (organizationId), or a deep link on the brand's site
// (originalUrl with organizationId). Any other combination, a hidden brand or campaign, and a URL
// off the brand's site are 400s naming the field.
import { CATALOG_BRAND, IN_CATALOG } from '../catalog/visibility';
import { prisma } from '../../platform/db';
import { BadRequestError, shown } from '../../platform/errors';
import { isUuid } from '../../platform/formats';
import {
  brandDedupeKey,
  campaignShortLink,
  customDedupeKey,
  trackingUrl,
  webUrl,
  type ShortLinkRequest,
} from './links';

export interface CreateShortUrlArgs {
  featureId?: string | number | null;
  organizationId?: string | null;
  originalUrl?: string | null;
}

export type LinkTarget =
  | { kind: 'campaign'; campaignId: string }
  | { kind: 'brandPage'; organizationId: string }
  | { kind: 'custom'; organizationId: string; originalUrl: string };

export function linkTargetOf({
  featureId,
  organizationId,
  originalUrl,
}: CreateShortUrlArgs): LinkTarget {
  if (featureId != null) {
    if (organizationId != null || originalUrl != null) {
      throw new BadRequestError(
        'featureId comes alone: the campaign decides the brand and the URL (no organizationId or originalUrl)',
      );
    }
    return { kind: 'campaign', campaignId: String(featureId) };
  }
  if (originalUrl != null) {
    if (organizationId == null) {
      throw new BadRequestError('originalUrl needs organizationId: the brand whose site it is on');
    }
    return { kind: 'custom', organizationId, originalUrl };
  }
  if (organizationId != null) return { kind: 'brandPage', organizationId };
  throw new BadRequestError(
    'Give featureId (a campaign link), organizationId (a brand page link), or originalUrl with organizationId (a deep link)',
  );
}

/** The host name a brand's links may lead to: its website's, without a leading `www.`. */
function siteHostOf(websiteUrl: string | null): string | null {
  const url = websiteUrl ? webUrl(websiteUrl) : null;
  return url ? url.hostname.toLowerCase().replace(/^www\./, '') : null;
}

/**
 * A deep link's target, checked: an absolute http(s) URL without credentials, on the brand's site
 * (its website's host or a subdomain of it). Anything else is a 400 naming the reason.
 */
export function deepLinkTarget(originalUrl: string, brandWebsiteUrl: string | null): URL {
  const url = webUrl(originalUrl);
  if (!url) throw new BadRequestError('originalUrl must be an absolute http(s) URL');
  if (url.username || url.password) {
    throw new BadRequestError('originalUrl must not contain credentials');
  }
  const siteHost = siteHostOf(brandWebsiteUrl);
  if (!siteHost) {
    throw new BadRequestError('organizationId: the brand has no website for deep links to lead to');
  }
  const host = url.hostname.toLowerCase();
  if (host !== siteHost && !host.endsWith(`.${siteHost}`)) {
    throw new BadRequestError(`originalUrl must be on the brand's site (${siteHost})`);
  }
  return url;
}

/** The catalog brand a body names, or a 400: a hidden brand cannot be linked to. */
async function linkableBrand(organizationId: string) {
  const brand = isUuid(organizationId)
    ? await prisma.organization.findFirst({
        where: { id: organizationId.toLowerCase(), ...CATALOG_BRAND },
        select: { id: true, websiteUrl: true },
      })
    : null;
  if (!brand) throw new BadRequestError(`organizationId: brand ${shown(organizationId)} not found`);
  return brand;
}

/** The link a valid creation body stands for, ready for getOrCreateShortUrl. */
export async function shortLinkRequestFor(
  affiliateId: string,
  target: LinkTarget,
): Promise<ShortLinkRequest> {
  switch (target.kind) {
    case 'campaign': {
      const { campaignId } = target;
      const campaign = isUuid(campaignId)
        ? await prisma.campaign.findFirst({
            where: { id: campaignId.toLowerCase(), ...IN_CATALOG },
            select: { id: true, organizationId: true, type: true, url: true },
          })
        : null;
      if (!campaign) {
        throw new BadRequestError(`featureId: campaign ${shown(campaignId)} not found`);
      }
      try {
        // The same link the campaign listing shows (and makes for Url offers).
        return campaignShortLink(affiliateId, campaign);
      } catch {
        throw new BadRequestError(
          `featureId: campaign ${shown(campaignId)} has no web address to link to`,
        );
      }
    }
    case 'brandPage': {
      const brand = await linkableBrand(target.organizationId);
      if (!brand.websiteUrl || !siteHostOf(brand.websiteUrl)) {
        throw new BadRequestError(`organizationId: brand ${brand.id} has no website to link to`);
      }
      return {
        affiliateId,
        organizationId: brand.id,
        linkType: 'BrandPage',
        originalUrl: trackingUrl(brand.websiteUrl, affiliateId),
        dedupeKey: brandDedupeKey(brand.id),
      };
    }
    case 'custom': {
      const brand = await linkableBrand(target.organizationId);
      const url = deepLinkTarget(target.originalUrl, brand.websiteUrl).toString();
      return {
        affiliateId,
        organizationId: brand.id,
        linkType: 'Custom',
        originalUrl: trackingUrl(url, affiliateId),
        dedupeKey: customDedupeKey(brand.id, url),
      };
    }
  }
}
