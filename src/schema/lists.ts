// The one way a route's list or single item is read. A list route is declared with `listQuery`:
// its rows, filter arguments and where-builder, order, envelope and page rule; the helper reads the
// page and the total (remembered per list as the client asked for it, the key's affiliate
// included) and answers the envelope. `itemQuery` reads one row by id within what the key may see,
// or answers 404. The shape of every list query is decided here.
import { queryFromInfo } from '@pothos/plugin-prisma';
import type { InputFieldMap, InputShapeFromFields } from '@pothos/core';
import type { GraphQLResolveInfo } from 'graphql';
import { notFound } from '../platform/errors';
import { builder, type KeyAuth } from './builder';
import type { AffiliateContext, Context } from './context';
import {
  countedListOf,
  metaPageOf,
  paginationPageOf,
  singleOf,
  type ItemRef,
  type ListEnvelope,
} from './envelopes';
import { listKey } from './listTotals';
import {
  isPaginated,
  pageInfo,
  pageSize,
  resolvePage,
  type Page,
  type PageRule,
  type PaginatedRule,
} from './pagination';
import { isUuid } from '../platform/formats';

/**
 * What a list reads its rows through: a Prisma model delegate (`prisma.campaign`). Its methods are
 * generic over their arguments, which the helper builds from the spec's where and order.
 */
export interface ListRows {
  /* eslint-disable @typescript-eslint/no-explicit-any -- any model's delegate */
  findMany(args: any): Promise<object[]>;
  count(args: any): Promise<number>;
  findFirst(args: any): Promise<object | null>;
  /* eslint-enable @typescript-eslint/no-explicit-any */
}

/**
 * Rows a list computes in one statement of its own (a report's aggregation): a page of them and
 * their total together. Such a list has no row index to find ids in and no total to remember.
 */
export interface ComputedRows<Where> {
  page(where: Where, page: Page): Promise<{ rows: object[]; total: number }>;
}

/** The context a field's resolvers see: an affiliate route's has the affiliate's id. */
type ContextOf<Auth extends KeyAuth> = Auth extends { openAffiliate: true }
  ? AffiliateContext
  : Context;

/** The `page` and `limit` arguments of a paginated list; the rule rides along for the OpenAPI document. */
function pageArgs(rule: PaginatedRule) {
  const extensions = { pageRule: rule };
  return builder.args((t) => ({
    page: t.int({ description: 'Page number, from 1. Default 1.', extensions }),
    limit: t.int({
      extensions,
      description:
        rule.aboveMax === 'clamp'
          ? `Items per page. Default ${rule.defaultLimit}; values above ${rule.maxLimit} are clamped to ${rule.maxLimit}.`
          : `Items per page, 1 to ${rule.maxLimit}. Default ${rule.defaultLimit}.`,
    }),
  }));
}

/** The ids of a page's rows, in the list's order. */
export type PageIds = (page: Page) => Promise<string[]>;

/** From this offset on, a page's rows are found by their ids first. */
export const FIND_IDS_FROM_OFFSET = 1_000;

/** A page's ids, read from the list's own index. */
function idsByIndex(rows: ListRows, where: object, order: readonly object[]): PageIds {
  return async (page) => {
    const found = await rows.findMany({
      where,
      orderBy: [...order],
      skip: page.skip,
      take: page.limit,
      select: { id: true },
    });
    return found.map((row) => (row as { id: string }).id);
  };
}

/**
 * The rows of one page. An OFFSET reads every row it skips: deep in a big list that is thousands
 * of scattered row reads. From FIND_IDS_FROM_OFFSET on, the page's ids are found first, from the
 * list's index alone where it covers the list's filter and order (each list's index ends with the
 * columns its filter reads), or by `findIds`, and then only those rows are read, the list's own
 * filter kept.
 */
export async function findPage<Where extends object>(
  rows: ListRows,
  where: Where,
  order: readonly object[],
  page: Page,
  selection: object,
  findIds: PageIds = idsByIndex(rows, where, order),
): Promise<object[]> {
  const orderBy = [...order];
  if (page.skip < FIND_IDS_FROM_OFFSET) {
    return rows.findMany({ ...selection, where, orderBy, skip: page.skip, take: page.limit });
  }
  const ids = await findIds(page);
  if (ids.length === 0) return [];
  return rows.findMany({
    ...selection,
    where: { AND: [where, { id: { in: ids } }] } as Where,
    orderBy,
  });
}

/** The selection of a page's rows: what the GraphQL query asks for under `data`. */
function rowSelection(context: Context, info: GraphQLResolveInfo): object {
  return queryFromInfo({ context, info, path: ['data'] });
}

export interface ListSpec<Where extends object, Args extends InputFieldMap, Auth extends KeyAuth> {
  /** The type of a row (a prismaObject). */
  item: ItemRef;
  /** The envelope: `meta` or `pagination` page info, or `count` (the total, or the rows answered). */
  envelope: 'meta' | 'pagination' | 'count';
  /** The envelope type's name. */
  type: string;
  description: string;
  auth: Auth;
  page: PageRule;
  args?: Args;
  rows: ListRows | ComputedRows<Where>;
  /**
   * The list's order, or the order its arguments ask for; its last column is unique, so pages never
   * overlap. Computed rows come in their own order (none here).
   */
  order: readonly object[] | ((args: InputShapeFromFields<Args>) => readonly object[]);
  where: (args: InputShapeFromFields<Args>, context: ContextOf<Auth>) => Where;
  /**
   * What the list's statement costs beyond its rows, in operation-cost units
   * (src/schema/complexity.ts): a report's period, a substring search. Default none.
   */
  work?: (args: InputShapeFromFields<Args>) => number;
  /**
   * How a deep page finds its ids where walking the list's index would pass too many rows that do
   * not match (rows of another table kept in the list's order). Default: the list's own index.
   */
  findIds?: (args: InputShapeFromFields<Args>, context: ContextOf<Auth>) => PageIds;
}

const ENVELOPES = { meta: metaPageOf, pagination: paginationPageOf, count: countedListOf };

/** A list route's root field (see the top of this file); returns its envelope type. */
export function listQuery<Where extends object, Args extends InputFieldMap, Auth extends KeyAuth>(
  name: string,
  spec: ListSpec<Where, Args, Auth>,
) {
  const envelope = ENVELOPES[spec.envelope](spec.type, spec.item);
  builder.queryField(name, (t) =>
    t.field({
      type: envelope,
      description: spec.description,
      authScopes: spec.auth,
      args: { ...(isPaginated(spec.page) && pageArgs(spec.page)), ...spec.args } as Args,
      // The operation cost counts the rows the page may hold, and the work of finding them
      // (src/schema/complexity.ts).
      complexity: (args) => ({
        field: 1 + (spec.work?.(args as InputShapeFromFields<Args>) ?? 0),
        multiplier: pageSize(args, spec.page),
      }),
      resolve: async (_root, args, context, info): Promise<ListEnvelope> => {
        const page = resolvePage(args, spec.page);
        const filter = args as InputShapeFromFields<Args>;
        // The scope checked the key's affiliate: an affiliate route's context has its id.
        const where = spec.where(filter, context as ContextOf<Auth>);
        if ('page' in spec.rows) {
          const { rows, total } = await spec.rows.page(where, page);
          if (spec.envelope === 'count') return { data: rows, count: total };
          return { data: rows, [spec.envelope]: pageInfo(total, page) };
        }
        const rowsOfModel = spec.rows;
        const order = typeof spec.order === 'function' ? spec.order(filter) : spec.order;
        const data = findPage(
          rowsOfModel,
          where,
          order,
          page,
          rowSelection(context, info),
          spec.findIds?.(filter, context as ContextOf<Auth>),
        );
        if (!isPaginated(spec.page)) return { data: await data, count: (await data).length };
        // A bounded count walks the list's own index and stops at `take`; Prisma's default order
        // for a count with `take` (by id) would sort every match first.
        const total = context.app.totals.total(listKey(name, context.affiliateId, args), (take) =>
          rowsOfModel.count({ where, ...(take !== undefined && { orderBy: [...order], take }) }),
        );
        const [rows, count] = await Promise.all([data, total]);
        if (spec.envelope === 'count') return { data: rows, count };
        return { data: rows, [spec.envelope]: pageInfo(count, page) };
      },
    }),
  );
  return envelope;
}

export interface ItemSpec<Where, Auth extends KeyAuth> {
  item: ItemRef;
  /** The `{ data }` type's name. */
  type: string;
  description: string;
  auth: Auth;
  /** The path parameter naming the row, an ID unless it is a String (a short link's code). */
  idArg: string;
  idType?: 'ID' | 'String';
  /** What a 404 calls the row (`Brand <id> not found`). */
  what: string;
  rows: ListRows;
  /** Whether a value can be an id at all: anything else is not found without a query. */
  isId?: (id: string) => boolean;
  /** The row with this id, among those the key may see. */
  where: (id: string, context: ContextOf<Auth>) => Where;
}

/**
 * An item route's root field: one row by id, within what the key may see, or 404. Returns its
 * `{ data }` type, for a mutation that answers the same.
 */
export function itemQuery<Where, Auth extends KeyAuth>(name: string, spec: ItemSpec<Where, Auth>) {
  const isId = spec.isId ?? isUuid;
  const single = singleOf(spec.type, spec.item);
  builder.queryField(name, (t) =>
    t.field({
      type: single,
      description: spec.description,
      authScopes: spec.auth,
      args: { [spec.idArg]: t.arg({ type: spec.idType ?? 'ID', required: true }) },
      resolve: async (_root, args, context, info) => {
        const id = String(args[spec.idArg]);
        if (!isId(id)) throw notFound(spec.what, id);
        const data = await spec.rows.findFirst({
          ...rowSelection(context, info),
          where: spec.where(isId === isUuid ? id.toLowerCase() : id, context as ContextOf<Auth>),
        });
        if (!data) throw notFound(spec.what, id);
        return { data };
      },
    }),
  );
  return single;
}
