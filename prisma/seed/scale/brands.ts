// Brands (organizations) at scale: every trait is an expression of the brand ordinal b, so the
// campaigns, products, links and orders of a brand can name its id, site and commission too.
// One brand in ten is hidden, breaking exactly one visibility rule
// (src/modules/catalog/visibility.ts).
import { SIZES } from './plan';
import {
  BATCH_ORDINALS,
  chance,
  counted,
  daysBefore,
  fraction,
  idOf,
  itemOf,
  pick,
  slugOf,
  type Sql,
} from './sql';
import type { Step } from './batches';
import {
  BRAND_CATEGORY_WORDS,
  BRAND_PREFIXES,
  BRAND_STEMS,
  CATEGORIES,
  CATEGORY_BLURBS,
  TRAVEL,
} from './vocabulary';

export function brandIdOf(b: Sql): Sql {
  return idOf('brand', b);
}

/** Index into CATEGORIES of the brand's main category. */
export function brandCategoryOf(b: Sql): Sql {
  return `((${b}) % 8)`;
}

export function brandCategoriesOf(b: Sql): Sql {
  const main = itemOf(CATEGORIES, brandCategoryOf(b));
  const second = itemOf(
    CATEGORIES,
    `(${brandCategoryOf(b)} + 1 + ${pick(b, 'brand:second-category', 7)}) % 8`,
  );
  return `CASE WHEN ${chance(b, 'brand:has-second-category', 25)} THEN ARRAY[${main}, ${second}] ELSE ARRAY[${main}] END`;
}

/**
 * Prefix, stem and a word of the main category. Within a category the 2,500 brands take distinct
 * (prefix, stem, word) triples (1231 is coprime with the 3,200 triples), so every name is unique.
 */
export function brandNameOf(b: Sql): Sql {
  const triple = `((${b}) / 8 * 1231 % 3200)`;
  return [
    itemOf(BRAND_PREFIXES, `${triple} % 40`),
    itemOf(BRAND_STEMS, `${triple} / 40 % 40`),
    itemOf(BRAND_CATEGORY_WORDS, `${brandCategoryOf(b)} * 2 + ${triple} / 1600`),
  ].join(` || ' ' || `);
}

export function brandWebsiteOf(b: Sql): Sql {
  return `'https://' || ${slugOf(brandNameOf(b))} || '.example'`;
}

export function isFixedFeeBrand(b: Sql): Sql {
  return `(${brandCategoryOf(b)} = ${TRAVEL})`;
}

export function brandCommissionTypeOf(b: Sql): Sql {
  return `(CASE WHEN ${isFixedFeeBrand(b)} THEN 'FIXED' ELSE 'PERCENTAGE' END)::"CommissionType"`;
}

/** Minor units per booking for fixed-fee brands, basis points (5 % .. 15 %) for the others. */
export function brandCommissionValueOf(b: Sql): Sql {
  return `CASE WHEN ${isFixedFeeBrand(b)} THEN (10 + ${pick(b, 'brand:fee', 31)}) * 100
    ELSE (10 + ${pick(b, 'brand:share', 21)}) * 50 END`;
}

export function brandCreatedAtOf(anchor: Sql, b: Sql): Sql {
  return daysBefore(anchor, `30 + ${fraction(b, 'brand:age')} * 2000`);
}

/** Which visibility rule a hidden brand breaks: one brand in ten, each rule equally often. */
const HIDDEN_BY = ['onboarding', 'approvalPending', 'approvalRejected', 'inactive', 'invisible'];

function hiddenBy(b: Sql, rule: (typeof HIDDEN_BY)[number]): Sql {
  return `((${b}) % 10 = 7 AND (${b}) / 10 % 5 = ${HIDDEN_BY.indexOf(rule)})`;
}

export function brandsStep(anchor: Sql): Step {
  return {
    name: 'brands',
    tables: ['Organization'],
    units: SIZES.brands,
    batchSize: SIZES.brands,
    after: [],
    sql: counted(
      'Organization',
      `INSERT INTO "Organization" ("id", "name", "slug", "description", "logoUrl", "websiteUrl",
        "onboardingStatus", "approvalStatus", "isActive", "isVisible", "isExclusive", "isHighlight",
        "isPublic", "categories", "defaultCommissionType", "defaultCommissionValue", "createdAt",
        "updatedAt")
      SELECT ${brandIdOf('b')}, name, ${slugOf('name')},
        name || ': ' || ${itemOf(CATEGORY_BLURBS, brandCategoryOf('b'))},
        site || '/logo.png', site,
        (CASE WHEN ${hiddenBy('b', 'onboarding')} THEN 'PENDING' ELSE 'COMPLETED' END)::"OnboardingStatus",
        (CASE WHEN ${hiddenBy('b', 'approvalPending')} THEN 'PENDING'
          WHEN ${hiddenBy('b', 'approvalRejected')} THEN 'REJECTED' ELSE 'APPROVED' END)::"ApprovalStatus",
        NOT ${hiddenBy('b', 'inactive')}, NOT ${hiddenBy('b', 'invisible')},
        ${chance('b', 'brand:exclusive', 10)}, ${chance('b', 'brand:highlight', 8)},
        NOT ${chance('b', 'brand:private', 15)}, ${brandCategoriesOf('b')},
        ${brandCommissionTypeOf('b')}, ${brandCommissionValueOf('b')}, created, created
      FROM ${BATCH_ORDINALS} AS b
      CROSS JOIN LATERAL (SELECT ${brandNameOf('b')} AS name) AS brand_name
      CROSS JOIN LATERAL (SELECT ${brandWebsiteOf('b')} AS site,
        ${brandCreatedAtOf(anchor, 'b')} AS created) AS brand
      ON CONFLICT ("id") DO NOTHING`,
    ),
  };
}
