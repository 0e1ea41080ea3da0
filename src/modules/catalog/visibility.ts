// What the catalog shows (contract, Brand): a brand whose network onboarding is completed, whose
// approval is approved, and which is active and visible; its campaigns and products with it. The
// database states the same rule for the campaigns' and products' copy of it (`is_visible_brand`,
// migration brand_visible_flags): a change here needs a migration there.
import type { Prisma } from '../../generated/prisma/client';

/** A brand the catalog shows. */
export const CATALOG_BRAND = {
  onboardingStatus: 'COMPLETED',
  approvalStatus: 'APPROVED',
  isActive: true,
  isVisible: true,
} as const satisfies Prisma.OrganizationWhereInput;

/**
 * A campaign or product the catalog shows: its brand's. Each row carries its brand's visibility
 * (`brandVisible`, kept by database triggers), so a list filters and pages on its own index
 * instead of looking up the brand of every row it passes.
 */
export const IN_CATALOG = { brandVisible: true } as const satisfies Prisma.CampaignWhereInput &
  Prisma.ProductWhereInput;
