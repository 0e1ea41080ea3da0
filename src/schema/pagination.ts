// The one pagination helper: page/limit rules of the contract and the page info of list envelopes.
import type { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from './builder';
import { BadRequestError } from '../errors';

export interface PageRule {
  defaultLimit: number;
  maxLimit: number;
  /** The contract clamps most lists silently; products answer 400 instead. */
  aboveMax: 'clamp' | 'reject';
}

export interface PageArgs {
  page?: number | null;
  limit?: number | null;
}

export interface Page {
  page: number;
  limit: number;
  skip: number;
}

export interface PageInfo {
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}

export function resolvePage(args: PageArgs, rule: PageRule): Page {
  const page = args.page ?? 1;
  if (page < 1) throw new BadRequestError('page must be an integer >= 1');
  let limit = args.limit ?? rule.defaultLimit;
  if (limit < 1 || (limit > rule.maxLimit && rule.aboveMax === 'reject')) {
    throw new BadRequestError(
      rule.aboveMax === 'reject'
        ? `limit must be between 1 and ${rule.maxLimit}`
        : 'limit must be an integer >= 1',
    );
  }
  limit = Math.min(limit, rule.maxLimit);
  return { page, limit, skip: (page - 1) * limit };
}

/** The Prisma selection of a page's rows: what the GraphQL query asks for (`queryFromInfo`). */
export type RowSelection = ReturnType<typeof queryFromInfo>;

/** From this offset on, a page's rows are found by their ids first (see `findPage`). */
export const FIND_IDS_FROM_OFFSET = 1_000;

/** What a page query reads: an offset range of the list, or the page's rows by their ids. */
export type PageSlice = { skip: number; take: number } | { ids: string[] };

/**
 * The rows of one page. An OFFSET reads every row it skips: deep in a big list that is thousands
 * of scattered row reads (page 500 of the big account's orders: 219 ms). From
 * FIND_IDS_FROM_OFFSET on, the page's ids are found first, from the index alone where it covers
 * the list's filter and order (each list's index ends with the columns its filter reads), and
 * then only those rows are read.
 */
export async function findPage<Row>(
  page: Page,
  findIds: (range: { skip: number; take: number }) => Promise<{ id: string }[]>,
  findRows: (slice: PageSlice) => Promise<Row[]>,
): Promise<Row[]> {
  const range = { skip: page.skip, take: page.limit };
  if (page.skip < FIND_IDS_FROM_OFFSET) return findRows(range);
  const ids = (await findIds(range)).map(({ id }) => id);
  return ids.length === 0 ? [] : findRows({ ids });
}

/** The Prisma arguments of a slice: the list's filter with the range, or narrowed to the ids. */
export function sliceArgs<Where extends object>(
  where: Where,
  slice: PageSlice,
): { where: Where | { AND: Where[] }; skip?: number; take?: number } {
  if (!('ids' in slice)) return { where, ...slice };
  // The list's own filter stays: the ids narrow it, they never widen it.
  const byId = { id: { in: slice.ids } } as Where; // every model's where input has a string `id`
  return { where: { AND: [where, byId] } };
}

export function pageInfo(total: number, { page, limit }: Page): PageInfo {
  return { total, page, limit, totalPages: Math.ceil(total / limit) };
}

/**
 * The `page` and `limit` arguments of a paginated list, documented with its rule. The rule rides
 * along in the arguments' extensions, so the OpenAPI document states the one the resolver applies.
 */
export function pageArgs(rule: PageRule) {
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

/** The page rule of a `page` or `limit` argument made by `pageArgs`. */
export function pageRuleOf(arg: { extensions?: Readonly<Record<string, unknown>> | null }) {
  return arg.extensions?.pageRule as PageRule | undefined;
}
