// Short links: rows with any field set, or made the way the shortener makes them.
import { prisma } from '../../../src/platform/db';
import type { Prisma } from '../../../src/generated/prisma/client';
import {
  campaignShortLink,
  generateUrlCode,
  getOrCreateShortUrl,
} from '../../../src/modules/links/links';
import { next } from './sequence';

/** A link of the affiliate to the brand; a Custom link unless `data` says otherwise. */
export function createLink(
  affiliateId: string,
  organizationId: string,
  data: Partial<Omit<Prisma.ShortUrlUncheckedCreateInput, 'affiliateId' | 'organizationId'>> = {},
) {
  const n = next();
  return prisma.shortUrl.create({
    data: {
      urlCode: generateUrlCode(),
      affiliateId,
      organizationId,
      linkType: 'Custom',
      originalUrl: `https://links.example/page/${n}?aff=${affiliateId}`,
      dedupeKey: `test-link:${n}`,
      ...data,
    },
  });
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

export function clickCountOf(urlCode: string): Promise<number> {
  return prisma.shortUrl
    .findUniqueOrThrow({ where: { urlCode }, select: { clickCount: true } })
    .then((link) => link.clickCount);
}

/**
 * Clicks on a link in an hour of the past, as the redirect's statement records them (the link's
 * hour and its affiliate's hour); the redirect itself only writes the current hour.
 */
export async function recordClicks(
  link: {
    id: string;
    affiliateId: string;
    organizationId: string;
    urlCode: string;
    campaignId: string | null;
  },
  hour: Date,
  { clicks = 0, repeats = 0, bots = 0 }: { clicks?: number; repeats?: number; bots?: number },
) {
  await prisma.linkClickHour.create({
    data: {
      linkId: link.id,
      affiliateId: link.affiliateId,
      organizationId: link.organizationId,
      urlCode: link.urlCode,
      campaignId: link.campaignId,
      hour,
      clicks,
      repeats,
      bots,
    },
  });
  await prisma.affiliateClickHour.upsert({
    where: { affiliateId_hour: { affiliateId: link.affiliateId, hour } },
    create: { affiliateId: link.affiliateId, hour, clicks, repeats, bots },
    update: {
      clicks: { increment: clicks },
      repeats: { increment: repeats },
      bots: { increment: bots },
    },
  });
}

/**
 * Tagged clicks on a link in an hour of the past, as the redirect's statement records them (the
 * link's sub-ID hour and its affiliate's); part of the link's clicks of that hour (recordClicks).
 */
export async function recordSubIdClicks(
  link: { id: string; affiliateId: string; organizationId: string },
  hour: Date,
  slot: number,
  value: string,
  { clicks = 0, repeats = 0, bots = 0 }: { clicks?: number; repeats?: number; bots?: number },
) {
  await prisma.linkSubIdClickHour.create({
    data: {
      linkId: link.id,
      affiliateId: link.affiliateId,
      organizationId: link.organizationId,
      hour,
      slot,
      value,
      clicks,
      repeats,
      bots,
    },
  });
  await prisma.affiliateSubIdClickHour.upsert({
    where: {
      affiliateId_slot_hour_value: { affiliateId: link.affiliateId, slot, hour, value },
    },
    create: { affiliateId: link.affiliateId, slot, hour, value, clicks, repeats, bots },
    update: {
      clicks: { increment: clicks },
      repeats: { increment: repeats },
      bots: { increment: bots },
    },
  });
}
