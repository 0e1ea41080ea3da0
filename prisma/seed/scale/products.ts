// Products at scale: 50 per brand (product p = k * brands + b is brand b's k-th), each with one to
// three variants. Prices are expressions of p, so order items can charge what the product costs.
import { SIZES, PRODUCTS } from './plan';
import { brandCategoryOf, brandIdOf, brandNameOf, brandWebsiteOf } from './brands';
import type { Step } from './batches';
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
import {
  CATEGORIES,
  PRODUCT_BASES,
  PRODUCT_QUALIFIERS,
  SPECIFICATIONS,
  VARIANTS,
} from './vocabulary';

export function productOrdinalOf(b: Sql, k: Sql): Sql {
  return `((${k}) * ${SIZES.brands} + (${b}))`;
}

export function productIdOf(p: Sql): Sql {
  return idOf('product', p);
}

/** 5.99 .. 499.99 */
function priceOf(p: Sql): Sql {
  return `((6 + ${pick(p, 'product:price', 495)}) * 100 - 1)`;
}

/** 30 % are on sale, at about 80 % of the price. */
function salePriceOf(p: Sql): Sql {
  return `CASE WHEN ${chance(p, 'product:on-sale', 30)} THEN (round(${priceOf(p)} * 0.008) * 100 - 1)::int END`;
}

/** What a shopper pays: the sale price when there is one. */
export function effectivePriceOf(p: Sql): Sql {
  return `COALESCE(${salePriceOf(p)}, ${priceOf(p)})`;
}

/** One in ten is sold out. */
function stockOf(p: Sql): Sql {
  return `CASE WHEN ${chance(p, 'product:sold-out', 10)} THEN 0 ELSE 1 + ${pick(p, 'product:stock', 200)} END`;
}

/** Within a brand the 50 (base, qualifier) pairs of its category are all different. */
export function productNameOf(b: Sql, k: Sql): Sql {
  const base = itemOf(PRODUCT_BASES, `${brandCategoryOf(b)} * 5 + (${k}) % 5`);
  return `${base} || ' ' || ${itemOf(PRODUCT_QUALIFIERS, `(${k}) / 5`)}`;
}

export function productSkuOf(b: Sql, k: Sql): Sql {
  const stem = `upper(left(replace(${slugOf(brandNameOf(b))}, '-', ''), 4))`;
  return `${stem} || '-' || (1001 + (${k}))`;
}

function specificationsOf(category: Sql, p: Sql): Sql {
  const names = SPECIFICATIONS.map((spec) => spec.name);
  const values = SPECIFICATIONS.flatMap((spec) => spec.values);
  const entry = (n: 0 | 1) => {
    const spec = `${category} * 2 + ${n}`;
    const value = itemOf(values, `(${spec}) * 3 + ${pick(p, `product:spec-${n}`, 3)}`);
    return `jsonb_build_object('name', ${itemOf(names, spec)}, 'value', ${value})`;
  };
  return `jsonb_build_array(${entry(0)}, ${entry(1)})`;
}

function imagesOf(site: Sql, sku: Sql, p: Sql): Sql {
  const image = (n: number) => `${site} || '/images/' || lower(${sku}) || '-${n}.jpg'`;
  return `(ARRAY[${image(1)}, ${image(2)}, ${image(3)}])[1:1 + ${pick(p, 'product:images', 3)}]`;
}

export function productsStep(anchor: Sql): Step {
  return {
    name: 'products',
    tables: ['Product'],
    units: PRODUCTS,
    batchSize: 100_000,
    after: ['brands'],
    sql: counted(
      'Product',
      `INSERT INTO "Product" ("id", "organizationId", "name", "description", "sku", "url",
        "priceMinor", "salePriceMinor", "currency", "stock", "available", "images",
        "specifications", "categories", "createdAt")
      SELECT ${productIdOf('p')}, ${brandIdOf('b')}, name, name || ' from ' || ${brandNameOf('b')} || '.',
        sku, site || '/products/' || ${slugOf('name')}, ${priceOf('p')}, ${salePriceOf('p')}, 'EUR',
        stock, stock > 0, ${imagesOf('site', 'sku', 'p')}, ${specificationsOf(brandCategoryOf('b'), 'p')},
        ARRAY[${itemOf(CATEGORIES, brandCategoryOf('b'))}],
        ${daysBefore(anchor, `1 + ${fraction('p', 'product:age')} * 900`)}
      FROM ${BATCH_ORDINALS} AS p
      CROSS JOIN LATERAL (SELECT p % ${SIZES.brands} AS b, p / ${SIZES.brands} AS k) AS ordinal
      CROSS JOIN LATERAL (SELECT ${productNameOf('b', 'k')} AS name, ${productSkuOf('b', 'k')} AS sku,
        ${brandWebsiteOf('b')} AS site, ${stockOf('p')} AS stock) AS product
      ON CONFLICT ("id") DO NOTHING`,
    ),
  };
}

/** The variants of products [$1, $2): one to three, the category's first ones, larger ones dearer. */
export function productVariantsStep(): Step {
  const variant = `(${brandCategoryOf('b')} * 3 + q)`;
  const names = VARIANTS.map((attributes) => Object.values(attributes).join(' / '));
  const attributes = VARIANTS.map((attributes) => JSON.stringify(attributes));
  return {
    name: 'product variants',
    tables: ['ProductVariant'],
    units: PRODUCTS,
    batchSize: 50_000,
    after: ['products'],
    sql: counted(
      'ProductVariant',
      `INSERT INTO "ProductVariant" ("id", "productId", "sku", "name", "priceMinor", "stock",
        "attributes", "position")
      SELECT ${idOf('variant', `p || ':' || q`)}, ${productIdOf('p')},
        ${productSkuOf('b', 'k')} || '-' || (q + 1), ${itemOf(names, variant)},
        price + q * round(price * 0.1)::int,
        CASE WHEN stock = 0 THEN 0 ELSE ${pick(`p * 3 + q`, 'variant:stock', 81)} END,
        ${itemOf(attributes, variant)}::jsonb, q
      FROM ${BATCH_ORDINALS} AS p
      CROSS JOIN LATERAL (SELECT p % ${SIZES.brands} AS b, p / ${SIZES.brands} AS k,
        ${priceOf('p')} AS price, ${stockOf('p')} AS stock) AS product
      CROSS JOIN LATERAL generate_series(0, ${pick('p', 'product:variants', 3)}) AS q
      ON CONFLICT ("id") DO NOTHING`,
    ),
  };
}
