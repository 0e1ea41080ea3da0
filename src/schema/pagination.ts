// The one pagination helper: page/limit rules of the contract and the page info of list envelopes.
import { builder } from './builder';
import { BadRequestError } from './errors';

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

export function pageInfo(total: number, { page, limit }: Page): PageInfo {
  return { total, page, limit, totalPages: Math.ceil(total / limit) };
}

/** The `page` and `limit` arguments of a paginated list, documented with its rule. */
export function pageArgs(rule: PageRule) {
  return builder.args((t) => ({
    page: t.int({ description: 'Page number, from 1. Default 1.' }),
    limit: t.int({
      description:
        rule.aboveMax === 'clamp'
          ? `Items per page. Default ${rule.defaultLimit}; values above ${rule.maxLimit} are clamped to ${rule.maxLimit}.`
          : `Items per page, 1 to ${rule.maxLimit}. Default ${rule.defaultLimit}.`,
    }),
  }));
}
