// What ties an affiliate to brands: channels and their enrollments, negotiated terms and favorites,
// personal coupon codes.
import { prisma } from '../../../src/platform/db';
import type { Prisma } from '../../../src/generated/prisma/client';
import { next } from './sequence';

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

export function enrollChannel(organizationId: string, channelId: string) {
  return prisma.brandChannelEnrollment.create({ data: { organizationId, channelId } });
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

export function createPersonalCode(campaignId: string, affiliateId: string, code: string) {
  return prisma.personalCouponCode.create({ data: { campaignId, affiliateId, code } });
}
