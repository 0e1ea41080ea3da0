// Helpers of the hardening tests (authorization matrix, fuzzing, GraphQL limits): GraphQL operations
// built from the schema, two affiliates with rows each, and row counts.
import {
  getNamedType,
  isInterfaceType,
  isObjectType,
  type GraphQLField,
  type GraphQLOutputType,
} from 'graphql';
import { prisma } from '../../src/platform/db';
import { Prisma } from '../../src/generated/prisma/client';
import { schema } from '../../src/modules';
import { isListOfObjects } from '../../src/schema/complexity';
import {
  createBrand,
  createCampaign,
  createChannel,
  createChannelType,
  createLink,
  createOrder,
  createPayout,
  createEntry,
  createProduct,
  createUser,
} from './factories';

/** `Query.field` and `Mutation.field` for every root field of the schema. */
export function rootFields(): string[] {
  return [schema.getQueryType()!, schema.getMutationType()!].flatMap((type) =>
    Object.keys(type.getFields()).map((name) => `${type.name}.${name}`),
  );
}

export function rootField(name: string): GraphQLField<unknown, unknown> {
  const [operation, field] = name.split('.') as ['Query' | 'Mutation', string];
  const type = operation === 'Query' ? schema.getQueryType()! : schema.getMutationType()!;
  return type.getFields()[field]!;
}

/** Every field of an output type, nested all the way down (the schema has no cycles). */
export function fullSelection(type: GraphQLOutputType, seen: string[] = []): string {
  const named = getNamedType(type);
  if (!isObjectType(named) && !isInterfaceType(named)) return '';
  if (seen.includes(named.name)) return '{ __typename }';
  const fields = Object.values(named.getFields()).map((field) =>
    `${field.name} ${fullSelection(field.type, [...seen, named.name])}`.trim(),
  );
  return `{ ${fields.join(' ')} }`;
}

/** Every field of an output type but lists of objects (an envelope's `data` list is followed). */
export function flatSelection(type: GraphQLOutputType): string {
  const named = getNamedType(type);
  if (!isObjectType(named) && !isInterfaceType(named)) return '';
  const fields = Object.values(named.getFields()).flatMap((field) => {
    if (isListOfObjects(field.type) && field.name !== 'data') return [];
    return [`${field.name} ${flatSelection(field.type)}`.trim()];
  });
  return `{ ${fields.join(' ')} }`;
}

/** An operation calling one root field with the given arguments as variables, selecting everything. */
export function operationFor(name: string, args: Record<string, unknown> = {}): string {
  const [operation] = name.split('.') as ['Query' | 'Mutation'];
  const field = rootField(name);
  const used = field.args.filter((arg) => arg.name in args);
  const declarations = used.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
  const passed = used.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  return `${operation.toLowerCase()}${declarations ? `(${declarations})` : ''} { ${field.name}${
    passed ? `(${passed})` : ''
  } ${fullSelection(field.type)} }`;
}

/**
 * Two affiliates (a and b) with a channel, an order, a short link and a payout each, on one visible brand
 * with a campaign and a product; and a partner user.
 */
export async function createTenants() {
  const brand = await createBrand();
  const campaign = await createCampaign(brand.id);
  const product = await createProduct(brand.id);
  const channelType = await createChannelType();
  const partner = await createUser('PARTNER');

  async function affiliate() {
    const user = await createUser('AFFILIATE');
    return {
      user,
      channel: await createChannel(user.id, channelType.id),
      order: await createOrder(user.id, brand.id),
      link: await createLink(user.id, brand.id),
      payout: { id: await createPayout(user.id, []) },
      earning: await createEntry(user.id),
    };
  }
  return { brand, campaign, product, partner, a: await affiliate(), b: await affiliate() };
}

export type Tenants = Awaited<ReturnType<typeof createTenants>>;

/** Row counts of every table of the data model (by model name), except the ones named. */
export async function rowCounts(exclude: readonly string[] = []): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const model of Object.values(Prisma.ModelName)) {
    if (exclude.includes(model)) continue;
    const delegateName = model[0]!.toLowerCase() + model.slice(1);
    const delegate = (prisma as unknown as Record<string, { count(): Promise<number> }>)[
      delegateName
    ]!;
    counts[model] = await delegate.count();
  }
  return counts;
}
