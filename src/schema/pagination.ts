// Page rules of the contract and the page info of list envelopes. Pure: no queries here.
import { BadRequestError } from '../platform/errors';

/** A paginated list's page rule; an unpaginated list answers at most `fixed` rows. */
export type PageRule =
  | {
      defaultLimit: number;
      maxLimit: number;
      /** The contract clamps most lists silently; products answer 400 instead. */
      aboveMax: 'clamp' | 'reject';
    }
  | { fixed: number };

export type PaginatedRule = Exclude<PageRule, { fixed: number }>;

export function isPaginated(rule: PageRule): rule is PaginatedRule {
  return !('fixed' in rule);
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

/** The page the arguments ask for; 400 for a page below 1 or a limit the rule refuses. */
export function resolvePage(args: PageArgs, rule: PageRule): Page {
  if (!isPaginated(rule)) return { page: 1, limit: rule.fixed, skip: 0 };
  const page = args.page ?? 1;
  if (page < 1) throw new BadRequestError('page must be an integer >= 1');
  const asked = args.limit ?? rule.defaultLimit;
  if (asked < 1 || (asked > rule.maxLimit && rule.aboveMax === 'reject')) {
    throw new BadRequestError(
      rule.aboveMax === 'reject'
        ? `limit must be between 1 and ${rule.maxLimit}`
        : 'limit must be an integer >= 1',
    );
  }
  const limit = Math.min(asked, rule.maxLimit);
  return { page, limit, skip: (page - 1) * limit };
}

/** The rows a page holds: the requested or default limit, within the rule's bounds. */
export function pageSize(args: PageArgs, rule: PageRule): number {
  if (!isPaginated(rule)) return rule.fixed;
  return Math.min(Math.max(args.limit ?? rule.defaultLimit, 1), rule.maxLimit);
}

export function pageInfo(total: number, { page, limit }: Page): PageInfo {
  return { total, page, limit, totalPages: Math.ceil(total / limit) };
}

/** The page rule a `page` or `limit` argument carries (the list helper puts it there). */
export function pageRuleOf(arg: { extensions?: Readonly<Record<string, unknown>> | null }) {
  return arg.extensions?.pageRule as PaginatedRule | undefined;
}
