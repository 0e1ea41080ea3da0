// Filters shared by the lists: text matched literally, and date ranges.
import { BadRequestError } from '../platform/errors';

// `search` and `name` filters match the text as typed, any case. Prisma hands `contains` and
// `startsWith` to PostgreSQL's LIKE with the value inside the pattern, where `%`, `_` and `\` are
// wildcards and the escape: each is escaped, so `_` finds an underscore, not every row.
const LIKE_SPECIALS = /[\\%_]/g;

/** `text` as literal characters of a LIKE pattern (backslash is PostgreSQL's default escape). */
function likeLiteral(text: string): string {
  return text.replace(LIKE_SPECIALS, '\\$&');
}

/** Rows whose column contains `text`, any case. */
export function containing(text: string) {
  return { contains: likeLiteral(text), mode: 'insensitive' as const };
}

/** Rows whose column starts with `text`, any case. */
export function startingWith(text: string) {
  return { startsWith: likeLiteral(text), mode: 'insensitive' as const };
}

/** A `{ gte, lte }` filter for a `startAt`/`endAt` pair; refuses a range that ends before it starts. */
export function dateRange(startAt?: Date | null, endAt?: Date | null) {
  if (startAt && endAt && startAt > endAt) {
    throw new BadRequestError('startAt must not be after endAt');
  }
  if (!startAt && !endAt) return undefined;
  return { ...(startAt && { gte: startAt }), ...(endAt && { lte: endAt }) };
}
