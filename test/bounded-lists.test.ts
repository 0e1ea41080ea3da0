// Every nested list answers at most the rows the operation cost prices it at
// (src/schema/complexity.ts): an order's items, a product's variants and specifications, a
// variant's attributes and a brand's channels, each the first in its own order, on REST as on
// GraphQL.
import { CHANNELS_ANSWERED } from '../src/modules/catalog/channels';
import { MAX_ORDER_ITEMS } from '../src/modules/orders/schema';
import {
  MAX_PRODUCT_SPECIFICATIONS,
  MAX_PRODUCT_VARIANTS,
  MAX_VARIANT_ATTRIBUTES,
} from '../src/modules/catalog/products';
import { call, graphql, useTestDatabase } from './support/app';
import {
  createAffiliate,
  createBrand,
  createChannel,
  createChannelType,
  createOrder,
  createProduct,
  enrollChannel,
} from './support/factories';

useTestDatabase();

let affiliateId: string;
let apiKey: string;
let brandId: string;

beforeAll(async () => {
  ({ affiliateId, apiKey } = await createAffiliate());
  ({ id: brandId } = await createBrand());
});

const upTo = (count: number) => Array.from({ length: count }, (_, n) => n);

test(`an order answers its first ${MAX_ORDER_ITEMS} items`, async () => {
  const order = await createOrder(
    affiliateId,
    brandId,
    {},
    upTo(MAX_ORDER_ITEMS + 1).map((n) => ({ name: `Line ${n}` })),
  );
  const rest = await call(`/affiliate/orders/${order.id}`, { key: apiKey });
  expect(rest.body.data.items.map((item: { name: string }) => item.name)).toEqual(
    upTo(MAX_ORDER_ITEMS).map((n) => `Line ${n}`),
  );
  const { body } = await graphql(
    'query ($id: ID!) { affiliateOrder(orderId: $id) { data { items { name } } } }',
    { id: order.id },
    { key: apiKey },
  );
  expect(body.data.affiliateOrder.data.items).toHaveLength(MAX_ORDER_ITEMS);
});

test(`a product answers its first ${MAX_PRODUCT_VARIANTS} variants and ${MAX_PRODUCT_SPECIFICATIONS} specifications, a variant its first ${MAX_VARIANT_ATTRIBUTES} attributes`, async () => {
  const attributes = Object.fromEntries(
    upTo(MAX_VARIANT_ATTRIBUTES + 1).map((n) => [`trait${n}`, `value ${n}`]),
  );
  await createProduct(
    brandId,
    {
      name: 'Everything Lamp',
      specifications: upTo(MAX_PRODUCT_SPECIFICATIONS + 1).map((n) => ({
        name: `spec ${n}`,
        value: 'x',
      })),
    },
    upTo(MAX_PRODUCT_VARIANTS + 1).map((n) => ({ name: `Variant ${n}`, attributes })),
  );
  const { body } = await call('/affiliate/products?search=Everything%20Lamp', { key: apiKey });
  const [product] = body.data;
  expect(product.variants.map((variant: { name: string }) => variant.name)).toEqual(
    upTo(MAX_PRODUCT_VARIANTS).map((n) => `Variant ${n}`),
  );
  expect(product.specifications.map((spec: { name: string }) => spec.name)).toEqual(
    upTo(MAX_PRODUCT_SPECIFICATIONS).map((n) => `spec ${n}`),
  );
  expect(
    product.variants[0].attributes.map((attribute: { name: string }) => attribute.name),
  ).toEqual(upTo(MAX_VARIANT_ATTRIBUTES).map((n) => `trait${n}`));
});

test(`a brand answers the affiliate's first ${CHANNELS_ANSWERED} enrolled channels`, async () => {
  const type = await createChannelType();
  const channels = [];
  for (const n of upTo(CHANNELS_ANSWERED + 1)) {
    const channel = await createChannel(affiliateId, type.id, {
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, n)),
    });
    await enrollChannel(brandId, channel.id);
    channels.push(channel.id);
  }
  const { body } = await call(`/affiliate/brands/${brandId}`, { key: apiKey });
  expect(body.data.channels.map((channel: { id: string }) => channel.id)).toEqual(
    channels.slice(0, CHANNELS_ANSWERED),
  );
});
