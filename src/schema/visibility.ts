// Catalog visibility (contract, Brand): a brand is visible when network onboarding is completed,
// approval is approved, and it is active and visible. The database states the same rule for the
// campaigns' and products' copy of it (`is_visible_brand`, migration brand_visible_flags): a change
// here needs a migration there.
import type { Prisma } from '../generated/prisma/client';
import { BadRequestError } from '../errors';

export const visibleOrganization = {
  onboardingStatus: 'COMPLETED',
  approvalStatus: 'APPROVED',
  isActive: true,
  isVisible: true,
} as const satisfies Prisma.OrganizationWhereInput;

/**
 * A campaign or product of a visible brand. Each row carries its brand's visibility
 * (`brandVisible`, kept by database triggers: migration brand_visible_flags), so a list filters
 * and pages on its own index instead of looking up the brand of every row it passes.
 */
export const ofVisibleBrand = { brandVisible: true } as const satisfies Prisma.CampaignWhereInput &
  Prisma.ProductWhereInput;

/** A `{ gte, lte }` filter for a `startAt`/`endAt` pair; refuses a range that ends before it starts. */
export function dateRange(startAt?: Date | null, endAt?: Date | null) {
  if (startAt && endAt && startAt > endAt) {
    throw new BadRequestError('startAt must not be after endAt');
  }
  if (!startAt && !endAt) return undefined;
  return { ...(startAt && { gte: startAt }), ...(endAt && { lte: endAt }) };
}
