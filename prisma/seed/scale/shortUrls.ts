// Short URLs at scale: the demo affiliate's 100,000 and 900,000 spread evenly over the small ones.
// An account's link i points into its relation r = i mod relations, slot s = i div relations:
// slot 0 is the brand page (so every relation has one, and orders can name its code), every
// eighth slot a deep link, the others the brand's campaign s - 1. Codes, dedupe keys and tracked
// URLs are made the way src/modules/links/links.ts makes them.
import { affiliateIdOf, relationBrandOf, relationCountOf, shortUrlAccountOf, SIZES } from './plan';
import { brandIdOf, brandWebsiteOf } from './brands';
import { campaignIdOf, campaignLinkTypeOf, campaignUrlOf } from './campaigns';
import type { Step } from './batches';
import {
  BATCH_ORDINALS,
  chance,
  counted,
  daysBefore,
  fraction,
  idOf,
  itemOf,
  urlCodeDigest,
  urlCodeOf,
  type Sql,
} from './sql';
import { DEEP_LINK_PATHS } from './vocabulary';

/** The code of an account's brand-page link to brand b (orders carry it). */
export function brandPageUrlCodeDigest(affiliateId: Sql, b: Sql): Sql {
  return urlCodeDigest(affiliateId, `'brand:' || ${brandIdOf(b)}`);
}

export function shortUrlsStep(anchor: Sql): Step {
  const { account, index } = shortUrlAccountOf('m');
  const isDeepLink = `(slot % 8 = 7)`;
  const isCampaignLink = `(slot > 0 AND NOT ${isDeepLink})`;
  return {
    name: 'short urls',
    tables: ['ShortUrl'],
    units: SIZES.shortUrls,
    batchSize: 100_000,
    after: ['campaigns', 'affiliates'],
    sql: counted(
      'ShortUrl',
      `INSERT INTO "ShortUrl" ("id", "urlCode", "affiliateId", "organizationId", "campaignId",
        "linkType", "originalUrl", "dedupeKey", "active", "clickCount", "createdAt")
      SELECT ${idOf('short-url', 'm')}, ${urlCodeOf('digest')}, affiliate_id, organization_id,
        campaign_id, link_type::"LinkType", target || '?aff=' || affiliate_id, dedupe_key,
        NOT ${chance('m', 'link:inactive', 5)},
        floor(power(${fraction('m', 'link:clicks')}, 3) * 5000)::int,
        ${daysBefore(anchor, `1 + ${fraction('m', 'link:age')} * 700`)}
      FROM ${BATCH_ORDINALS} AS m
      CROSS JOIN LATERAL (SELECT ${account} AS a, ${index} AS i) AS owner
      CROSS JOIN LATERAL (SELECT i % ${relationCountOf('a')} AS r, i / ${relationCountOf('a')} AS slot,
        ${affiliateIdOf('a')} AS affiliate_id) AS link
      CROSS JOIN LATERAL (SELECT ${relationBrandOf('a', 'r')} AS b) AS relation
      CROSS JOIN LATERAL (SELECT ${brandIdOf('b')} AS organization_id,
        CASE WHEN ${isCampaignLink} THEN ${campaignIdOf('b', 'slot - 1')} END AS campaign_id,
        CASE WHEN slot = 0 THEN 'BrandPage' WHEN ${isDeepLink} THEN 'Custom'
          ELSE ${campaignLinkTypeOf('b', 'slot - 1')} END AS link_type,
        CASE WHEN slot = 0 THEN ${brandWebsiteOf('b')} || '/'
          WHEN ${isDeepLink} THEN ${brandWebsiteOf('b')} || ${itemOf(DEEP_LINK_PATHS, `slot / 8 % ${DEEP_LINK_PATHS.length}`)}
          ELSE ${campaignUrlOf('b', 'slot - 1')} END AS target) AS destination
      CROSS JOIN LATERAL (SELECT CASE WHEN slot = 0 THEN 'brand:' || organization_id
          WHEN ${isDeepLink} THEN 'custom:' || organization_id || ':' || target
          ELSE 'campaign:' || campaign_id END AS dedupe_key) AS dedupe
      CROSS JOIN LATERAL (SELECT ${urlCodeDigest('affiliate_id', 'dedupe_key')} AS digest) AS code
      ON CONFLICT ("id") DO NOTHING`,
    ),
  };
}
