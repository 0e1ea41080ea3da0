// The stack's floor: yoga + Sofa + Pothos answering the ceiling's body (ceilingBody.ts) from
// memory, with none of the service (no edge, key, quota, facade or database). It is what a list
// route of this design costs before the service adds any work of its own, so the service's list
// routes can reach its throughput at best. Sofa is wired into yoga as @graphql-yoga/plugin-sofa
// wires it (execution through yoga's envelop); bundled and run as its own process like the ceiling,
// printing `listening <port>`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import SchemaBuilder from '@pothos/core';
import type { ExecutionArgs } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import { useSofa } from 'sofa-api';
// Type-only, erased at run time: the service's page info shape, none of its builders or schema code.
import type { PageInfo } from '../../src/schema/pagination';
import { ceilingBody } from './ceilingBody';

export const STACK_FLOOR_PATH = '/floor/brands';

interface Brand {
  id: string;
  name: string;
  slug: string;
  description: string;
  logoUrl: string;
  websiteUrl: string;
  categories: string[];
  isExclusive: boolean;
  isHighlight: boolean;
  isPublic: boolean;
  createdAt: string;
  commission: { type: string; value: number };
  isFavorite: boolean;
  channels: string[];
  shortUrl: string | null;
}

interface BrandPage {
  data: Brand[];
  pagination: PageInfo;
}

function floorSchema(page: BrandPage) {
  // The service's Pothos plugins declare their options globally; this builder uses none of them.
  const builder = new SchemaBuilder<{ DefaultFieldNullability: false }>({
    defaultFieldNullability: false,
  } as never);
  const Commission = builder.objectRef<Brand['commission']>('Commission').implement({
    fields: (t) => ({ type: t.exposeString('type'), value: t.exposeFloat('value') }),
  });
  const FloorBrand = builder.objectRef<Brand>('FloorBrand').implement({
    fields: (t) => ({
      id: t.exposeID('id'),
      name: t.exposeString('name'),
      slug: t.exposeString('slug'),
      description: t.exposeString('description'),
      logoUrl: t.exposeString('logoUrl'),
      websiteUrl: t.exposeString('websiteUrl'),
      categories: t.exposeStringList('categories'),
      isExclusive: t.exposeBoolean('isExclusive'),
      isHighlight: t.exposeBoolean('isHighlight'),
      isPublic: t.exposeBoolean('isPublic'),
      createdAt: t.exposeString('createdAt'),
      commission: t.field({ type: Commission, resolve: (brand) => brand.commission }),
      isFavorite: t.exposeBoolean('isFavorite'),
      channels: t.exposeStringList('channels'),
      shortUrl: t.exposeString('shortUrl', { nullable: true }),
    }),
  });
  const Pagination = builder.objectRef<BrandPage['pagination']>('Pagination').implement({
    fields: (t) => ({
      page: t.exposeInt('page'),
      limit: t.exposeInt('limit'),
      total: t.exposeInt('total'),
      totalPages: t.exposeInt('totalPages'),
    }),
  });
  const FloorBrandPage = builder.objectRef<BrandPage>('FloorBrandPage').implement({
    fields: (t) => ({
      data: t.field({ type: [FloorBrand], resolve: (result) => result.data }),
      pagination: t.field({ type: Pagination, resolve: (result) => result.pagination }),
    }),
  });
  builder.queryType({
    fields: (t) => ({
      floorBrands: t.field({
        type: FloorBrandPage,
        args: { page: t.arg.int(), limit: t.arg.int() },
        resolve: () => page,
      }),
    }),
  });
  return builder.toSchema({ sortSchema: false });
}

/** Sofa inside yoga, executing through yoga's envelop (as @graphql-yoga/plugin-sofa does). */
function useSofaRoutes(): Plugin {
  let sofa: ReturnType<typeof useSofa>;
  let getEnveloped: Parameters<NonNullable<Plugin['onYogaInit']>>[0]['yoga']['getEnveloped'];
  const envelopedByContext = new WeakMap<object, ReturnType<typeof getEnveloped>>();
  return {
    onYogaInit({ yoga }) {
      getEnveloped = yoga.getEnveloped;
    },
    onSchemaChange({ schema }) {
      sofa = useSofa({
        basePath: '',
        schema,
        routes: { 'Query.floorBrands': { method: 'GET', path: STACK_FLOOR_PATH } },
        async context(serverContext: Record<string, unknown>) {
          const enveloped = getEnveloped(serverContext);
          const contextValue = await enveloped.contextFactory(serverContext);
          envelopedByContext.set(contextValue, enveloped);
          return contextValue;
        },
        execute: ((args: ExecutionArgs) =>
          envelopedByContext.get(args.contextValue as object)!.execute(args)) as never,
      });
    },
    async onRequest({ request, serverContext, endResponse }) {
      const response = await sofa.handleRequest(request, serverContext);
      if (response) endResponse(response as Response);
    },
  };
}

function main(): void {
  const page = JSON.parse(ceilingBody().toString()) as BrandPage;
  const yoga = createYoga({
    schema: floorSchema(page),
    logging: false,
    landingPage: false,
    graphiql: false,
    plugins: [useSofaRoutes()],
  });
  const server = createServer(yoga);
  server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
    console.log(`listening ${(server.address() as AddressInfo).port}`);
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

if (require.main === module) main();
