// A brand's visibility changes after its campaigns and products exist: they leave and rejoin the
// partner and affiliate lists with it. Each row carries its brand's visibility (`brandVisible`,
// kept by the triggers of migration brand_visible_flags), so this is what keeps the copy true.
import { config } from '../../src/platform/config';
import { prisma } from '../../src/platform/db';
import { call, useTestDatabase } from '../support/app';
import {
  createApiKey,
  createBrand,
  createCampaign,
  createProduct,
  createUser,
  VISIBLE,
} from '../support/factories';

useTestDatabase();

let partnerKey: string;
let affiliateKey: string;

beforeAll(async () => {
  ({ apiKey: partnerKey } = await createApiKey('partner'));
  const affiliate = await createUser();
  ({ apiKey: affiliateKey } = await createApiKey('affiliate', { ownerId: affiliate.id }));
});

/** The ids each list shows for one brand: partner and affiliate campaigns, affiliate products. */
async function listedFor(brandId: string) {
  const [partnerCampaigns, affiliateCampaigns, products] = await Promise.all([
    call(`/api/partner/campaigns?organizationId=${brandId}`, { key: partnerKey }),
    call(`/affiliate/campaigns?organizationId=${brandId}`, { key: affiliateKey }),
    call(`/affiliate/products?organizationId=${brandId}`, { key: affiliateKey }),
  ]);
  const ids = (result: { body: { data: { id: string }[] } }) =>
    result.body.data.map((row) => row.id).sort();
  return {
    partnerCampaigns: ids(partnerCampaigns),
    affiliateCampaigns: ids(affiliateCampaigns),
    products: ids(products),
  };
}

async function brandWithCatalog() {
  const brand = await createBrand();
  const campaign = await createCampaign(brand.id);
  const product = await createProduct(brand.id);
  return { brand, campaign, product };
}

const shown = (campaignId: string, productId: string) => ({
  partnerCampaigns: [campaignId],
  affiliateCampaigns: [campaignId],
  products: [productId],
});
const NOTHING = { partnerCampaigns: [], affiliateCampaigns: [], products: [] };

describe.each([
  ['onboarding pending', { onboardingStatus: 'PENDING' }],
  ['approval rejected', { approvalStatus: 'REJECTED' }],
  ['inactive', { isActive: false }],
  ['not visible', { isVisible: false }],
] as const)('a brand becoming hidden (%s)', (_reason, hiding) => {
  test('takes its campaigns and products out of every list and single GET, and back when shown', async () => {
    const { brand, campaign, product } = await brandWithCatalog();
    expect(await listedFor(brand.id)).toEqual(shown(campaign.id, product.id));

    await prisma.organization.update({ where: { id: brand.id }, data: hiding });
    expect(await listedFor(brand.id)).toEqual(NOTHING);
    const single = await call(`/api/partner/campaigns/${campaign.id}`, { key: partnerKey });
    expect(single.status).toBe(404);

    await prisma.organization.update({ where: { id: brand.id }, data: VISIBLE });
    expect(await listedFor(brand.id)).toEqual(shown(campaign.id, product.id));
  });
});

test('a campaign or product moved to a hidden brand leaves the lists; moved back, it returns', async () => {
  const { brand, campaign, product } = await brandWithCatalog();
  const hiddenBrand = await createBrand({ isVisible: false });

  await prisma.campaign.update({
    where: { id: campaign.id },
    data: { organizationId: hiddenBrand.id },
  });
  await prisma.product.update({
    where: { id: product.id },
    data: { organizationId: hiddenBrand.id },
  });
  const byId = await call(`/api/partner/campaigns/${campaign.id}`, { key: partnerKey });
  expect(byId.status).toBe(404);
  expect(await listedFor(brand.id)).toEqual(NOTHING);

  await prisma.campaign.update({ where: { id: campaign.id }, data: { organizationId: brand.id } });
  await prisma.product.update({ where: { id: product.id }, data: { organizationId: brand.id } });
  expect(await listedFor(brand.id)).toEqual(shown(campaign.id, product.id));
});

test("writing the flag by hand cannot list a hidden brand's campaign or product", async () => {
  const brand = await createBrand({ approvalStatus: 'PENDING' });
  const campaign = await createCampaign(brand.id);
  const product = await createProduct(brand.id);

  await prisma.campaign.update({ where: { id: campaign.id }, data: { brandVisible: true } });
  await prisma.product.update({ where: { id: product.id }, data: { brandVisible: true } });

  expect(await listedFor(brand.id)).toEqual(NOTHING);
});

// Two sessions at once: only a PostgreSQL server has them (PGlite is one session).
const withConcurrentSessions = config.databaseUrl ? test : test.skip;

withConcurrentSessions(
  'a campaign created while its brand is being hidden is not listed once both commit',
  async () => {
    const brand = await createBrand();
    let hidingDoneBeforeCommit: boolean | undefined;
    let hiding: Promise<unknown> | undefined;
    await prisma.$transaction(async (transaction) => {
      await createCampaign(brand.id, { name: 'Created during the hiding' }, transaction);
      // The other session hides the brand while this one has not committed its campaign.
      hiding = prisma.organization.update({ where: { id: brand.id }, data: { isVisible: false } });
      hidingDoneBeforeCommit = await Promise.race([
        hiding.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 300)),
      ]);
    });
    await hiding;

    // The hiding waited for the campaign's commit, so it reached the campaign too.
    expect(hidingDoneBeforeCommit).toBe(false);
    expect((await listedFor(brand.id)).partnerCampaigns).toEqual([]);
  },
);
