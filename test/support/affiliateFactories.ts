// Rows of the affiliate context for tests: channel types and channels, the affiliate's relation to
// a brand (commission, favorite), channel enrollments and short links. Each call makes new rows.
import { randomBytes } from 'node:crypto';
import { prisma } from '../../src/db';
import type { Prisma } from '../../src/generated/prisma/client';

let sequence = 0;
const next = () => (sequence += 1);

export function createChannelType(name = `Channel type ${next()}`, isWhiteLabel = false) {
  return prisma.channelType.create({ data: { name, isWhiteLabel } });
}

export function createChannel(
  userId: string,
  typeId: string,
  data: Partial<Omit<Prisma.ChannelUncheckedCreateInput, 'userId' | 'typeId'>> = {},
) {
  return prisma.channel.create({ data: { userId, typeId, ...data } });
}

/** The affiliate's negotiated terms with a brand and its favorite flag. */
export function relateAffiliateToBrand(
  affiliateId: string,
  organizationId: string,
  data: Partial<
    Omit<Prisma.AffiliateBrandUncheckedCreateInput, 'affiliateId' | 'organizationId'>
  > = {},
) {
  return prisma.affiliateBrand.create({
    data: {
      affiliateId,
      organizationId,
      commissionType: 'PERCENTAGE',
      commissionValue: 500,
      ...data,
    },
  });
}

export function enrollChannel(organizationId: string, channelId: string) {
  return prisma.brandChannelEnrollment.create({ data: { organizationId, channelId } });
}

export function createShortUrl(
  affiliateId: string,
  organizationId: string,
  data: Partial<Omit<Prisma.ShortUrlUncheckedCreateInput, 'affiliateId' | 'organizationId'>> = {},
) {
  const n = next();
  return prisma.shortUrl.create({
    data: {
      urlCode: randomBytes(6).toString('base64url').slice(0, 8),
      affiliateId,
      organizationId,
      linkType: 'BrandPage',
      originalUrl: `https://brand.example/page/${n}`,
      dedupeKey: `test:${n}`,
      ...data,
    },
  });
}
