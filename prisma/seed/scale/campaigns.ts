// Campaigns at scale: 50 per brand, campaign n = k * brands + b is brand b's k-th. Every type and
// offer type on every brand, and every status against the anchor day: 55 % expired, 30 % running
// (ending 30+ days after the anchor, so they stay running for weeks), 15 % scheduled.
import {
  affiliateIdOf,
  CAMPAIGNS,
  relationBrandOf,
  relationCountOf,
  relationKeyOf,
  SIZES,
} from './plan';
import {
  brandCategoriesOf,
  brandCommissionTypeOf,
  brandIdOf,
  brandNameOf,
  brandWebsiteOf,
  isFixedFeeBrand,
} from './brands';
import type { Step } from './batches';
import {
  BATCH_ORDINALS,
  chance,
  counted,
  daysAfter,
  daysBefore,
  fraction,
  idOf,
  itemOf,
  pick,
  slugOf,
  type Sql,
} from './sql';
import { COUPON_THEMES, OFFER_THEMES } from './vocabulary';

const campaignOrdinalOf = (b: Sql, k: Sql): Sql => `((${k}) * ${SIZES.brands} + (${b}))`;

export function campaignIdOf(b: Sql, k: Sql): Sql {
  return idOf('campaign', campaignOrdinalOf(b, k));
}

/** 0..19: 7 Url offers, 3 Spreadsheet offers, 6 GenericCoupons, 4 PersonalCoupons in 20. */
const kindSlotOf = (b: Sql, k: Sql): Sql => `((${k}) + (${b})) % 20`;
const isOffer = (b: Sql, k: Sql): Sql => `(${kindSlotOf(b, k)} < 10)`;

export function isPersonalCoupon(b: Sql, k: Sql): Sql {
  return `(${kindSlotOf(b, k)} >= 16)`;
}

/** The link type of an affiliate's short link to the campaign (src/modules/links/links.ts). */
export function campaignLinkTypeOf(b: Sql, k: Sql): Sql {
  return `CASE WHEN ${isOffer(b, k)} THEN 'Offer' ELSE 'Coupon' END`;
}

const themeIndexOf = (b: Sql, k: Sql): Sql => `((${k}) * 3 + (${b})) % 11`;

function themeOf(b: Sql, k: Sql): Sql {
  const index = themeIndexOf(b, k);
  return `CASE WHEN ${isOffer(b, k)} THEN ${itemOf(OFFER_THEMES, index)} ELSE ${itemOf(COUPON_THEMES, index)} END`;
}

export function campaignUrlOf(b: Sql, k: Sql): Sql {
  const folder = `CASE WHEN ${isOffer(b, k)} THEN '/offers/' ELSE '/coupons/' END`;
  return `${brandWebsiteOf(b)} || ${folder} || ${slugOf(themeOf(b, k))} || '-' || ((${k}) + 1)`;
}

const KIND_BLURBS = {
  offer: 'Tracked link to the landing page.',
  generic: 'One public code for every shopper.',
  personal: 'Every affiliate gets a code of their own.',
};

/** Columns "type", "offerType" and the description's last sentence, from the kind slot. */
function kindColumns(slot: Sql): { type: Sql; offerType: Sql; blurb: Sql } {
  return {
    type: `(CASE WHEN ${slot} < 10 THEN 'Offer' WHEN ${slot} < 16 THEN 'GenericCoupon'
      ELSE 'PersonalCoupon' END)::"CampaignType"`,
    offerType: `(CASE WHEN ${slot} < 7 THEN 'Url' WHEN ${slot} < 10 THEN 'Spreadsheet' END)::"OfferType"`,
    blurb: `CASE WHEN ${slot} < 10 THEN '${KIND_BLURBS.offer}' WHEN ${slot} < 16
      THEN '${KIND_BLURBS.generic}' ELSE '${KIND_BLURBS.personal}' END`,
  };
}

/** Start and end by status (`period`: 0..10 expired, 11..16 running, 17..19 scheduled). */
function periodColumns(anchor: Sql, n: Sql): { startAt: Sql; endAt: Sql } {
  const when = fraction(n, 'campaign:when');
  const length = fraction(n, 'campaign:length');
  const expiredEnd = daysBefore(anchor, `1 + ${when} * 700`);
  const scheduledStart = daysAfter(anchor, `14 + ${when} * 106`);
  return {
    startAt: `CASE WHEN period < 11 THEN ${daysBefore(expiredEnd, `7 + ${length} * 83`)}
      WHEN period < 17 THEN ${daysBefore(anchor, `1 + ${when} * 364`)} ELSE ${scheduledStart} END`,
    endAt: `CASE WHEN period < 11 THEN ${expiredEnd}
      WHEN period < 17 THEN ${daysAfter(anchor, `30 + ${length} * 335`)}
      ELSE ${daysAfter(scheduledStart, `14 + ${length} * 76`)} END`,
  };
}

export function campaignsStep(anchor: Sql): Step {
  const kind = kindColumns('slot');
  const period = periodColumns(anchor, 'n');
  return {
    name: 'campaigns',
    tables: ['Campaign'],
    units: CAMPAIGNS,
    batchSize: 100_000,
    after: ['brands'],
    sql: counted(
      'Campaign',
      `INSERT INTO "Campaign" ("id", "organizationId", "name", "description", "type", "offerType",
        "code", "url", "categories", "startAt", "endAt", "isHighlight", "commissionType",
        "commissionValue", "createdAt")
      SELECT ${idOf('campaign', 'n')}, ${brandIdOf('b')},
        brand_name || ' ' || theme || ' ' || extract(year FROM start_at)::int,
        theme || ' at ' || brand_name || '. ' || ${kind.blurb},
        ${kind.type}, ${kind.offerType},
        CASE WHEN slot >= 10 AND slot < 16
          THEN upper(split_part(${slugOf('brand_name')}, '-', 1)) || (2 + ${pick('n', 'campaign:code', 5)}) * 5 END,
        ${campaignUrlOf('b', 'k')}, ${brandCategoriesOf('b')}, start_at, end_at,
        ${chance('n', 'campaign:highlight', 10)}, ${brandCommissionTypeOf('b')},
        CASE WHEN ${isFixedFeeBrand('b')} THEN (5 + ${pick('n', 'campaign:fee', 46)}) * 100
          ELSE (6 + ${pick('n', 'campaign:share', 35)}) * 50 END,
        ${daysBefore(`LEAST(start_at, ${anchor})`, `1 + ${fraction('n', 'campaign:created')} * 29`)}
      FROM ${BATCH_ORDINALS} AS n
      CROSS JOIN LATERAL (SELECT n % ${SIZES.brands} AS b, n / ${SIZES.brands} AS k,
        ${pick('n', 'campaign:period', 20)} AS period) AS ordinal
      CROSS JOIN LATERAL (SELECT ${kindSlotOf('b', 'k')} AS slot, ${themeOf('b', 'k')} AS theme,
        ${brandNameOf('b')} AS brand_name, ${period.startAt} AS start_at, ${period.endAt} AS end_at) AS campaign
      ON CONFLICT ("id") DO NOTHING`,
    ),
  };
}

/**
 * PersonalCoupon codes: an affiliate sees its own code only (the affiliate campaign resolver reads
 * it by affiliate), so each account gets codes for a share of the PersonalCoupons of its brands:
 * 80 % for the demo affiliate, 50 % for the small ones. Codes carry the account, so they are unique
 * per campaign.
 */
export function personalCouponCodesStep(anchor: Sql): Step {
  const key = `(${relationKeyOf('a', 'r')} * ${SIZES.campaignsPerBrand} + k)`;
  return {
    name: 'personal coupon codes',
    tables: ['PersonalCouponCode'],
    units: SIZES.accounts,
    batchSize: 100,
    after: ['campaigns', 'affiliates'],
    sql: counted(
      'PersonalCouponCode',
      `INSERT INTO "PersonalCouponCode" ("campaignId", "affiliateId", "code", "createdAt")
      SELECT ${campaignIdOf('b', 'k')}, ${affiliateIdOf('a')},
        CASE WHEN a = 0 THEN 'ANA' ELSE 'AF' || lpad(a::text, 3, '0') END || '-'
          || upper(substr(md5('scale:coupon:' || ${key}), 1, 6)),
        ${daysBefore(anchor, `1 + ${fraction(key, 'coupon:issued-at')} * 300`)}
      FROM ${BATCH_ORDINALS} AS a
      CROSS JOIN LATERAL generate_series(0, ${relationCountOf('a')} - 1) AS r
      CROSS JOIN LATERAL (SELECT ${relationBrandOf('a', 'r')} AS b) AS relation
      CROSS JOIN generate_series(0, ${SIZES.campaignsPerBrand - 1}) AS k
      WHERE ${isPersonalCoupon('b', 'k')}
        AND ${pick(key, 'coupon:issued', 100)} < CASE WHEN a = 0 THEN 80 ELSE 50 END
      ON CONFLICT ("campaignId", "affiliateId") DO NOTHING`,
    ),
  };
}
