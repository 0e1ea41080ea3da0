// SQL building blocks of the scale seed. Every value is an expression of a row's ordinal (hashes
// and modulo, never random()), so the same ordinal yields the same row on every run, and the rows
// are generated inside PostgreSQL by `INSERT ... SELECT ... FROM generate_series(...)`.
// The helpers splice only this module's own constants and column names into SQL text.
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** A SQL expression or statement fragment. */
export type Sql = string;

/** A quoted SQL string literal. */
export function text(value: string): Sql {
  return `'${value.replace(/'/g, "''")}'`;
}

/** `ARRAY['a','b'][1 + index]`: the list item at a zero-based SQL index. */
export function itemOf(list: readonly string[], index: Sql): Sql {
  return `(ARRAY[${list.map(text).join(',')}])[1 + (${index})]`;
}

/**
 * 0 <= value < 2^31, spread uniformly, from an ordinal and a trait name. Each trait gets its own
 * salt, so the traits of one row are independent of each other.
 */
export function hashOf(ordinal: Sql, trait: string): Sql {
  return `(hashint8extended((${ordinal})::bigint, ${crc32(trait)}) & 2147483647)::int`;
}

/** 0 <= value < modulo. */
export function pick(ordinal: Sql, trait: string, modulo: number | Sql): Sql {
  return `(${hashOf(ordinal, trait)} % (${modulo}))`;
}

/** 0 <= value < 1. */
export function fraction(ordinal: Sql, trait: string): Sql {
  return `(${hashOf(ordinal, trait)}::float8 / 2147483648)`;
}

/** True for `percent` % of the ordinals. */
export function chance(ordinal: Sql, trait: string, percent: number): Sql {
  return `(${pick(ordinal, trait, 100)} < ${percent})`;
}

/** The id of a generated row: the MD5 of its kind and key, read as a UUID. */
export function idOf(kind: string, key: Sql): Sql {
  return `md5(${text(`scale:${kind}:`)} || (${key}))::uuid`;
}

/** The same id computed in TypeScript, for the rows this module names (keys, examples). */
export function scaleId(kind: string, key: string | number): string {
  const hex = createHash('md5').update(`scale:${kind}:${key}`).digest('hex');
  return hex.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
}

/** `TIMESTAMP '...'`: the day every generated date is relative to (UTC, as Prisma stores dates). */
export function timestamp(date: Date): Sql {
  return `TIMESTAMP '${date.toISOString().replace('T', ' ').replace('Z', '')}'`;
}

export function daysBefore(anchor: Sql, days: Sql): Sql {
  return `(${anchor} - (${days}) * INTERVAL '1 day')`;
}

export function daysAfter(anchor: Sql, days: Sql): Sql {
  return `(${anchor} + (${days}) * INTERVAL '1 day')`;
}

/** A slug of a SQL text made of words and spaces (every generated name is). */
export function slugOf(name: Sql): Sql {
  return `lower(replace(${name}, ' ', '-'))`;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The digest a short link's code is read from: computed once per row, in a LATERAL. */
export function urlCodeDigest(affiliateId: Sql, dedupeKey: Sql): Sql {
  return `decode(md5('scale:url-code:' || (${affiliateId}) || ':' || (${dedupeKey})), 'hex')`;
}

/** 8 base62 characters from a digest, like the codes the shortener issues (src/modules/links/links.ts). */
export function urlCodeOf(digest: Sql): Sql {
  const characters = Array.from(
    { length: 8 },
    (_, i) => `substr('${BASE62}', 1 + get_byte(${digest}, ${i}) % 62, 1)`,
  );
  return characters.join(' || ');
}

/** `WITH inserted AS (<insert> RETURNING 1) SELECT count(*)`: answers the rows per table. */
export function counted(table: string, insert: Sql): Sql {
  return `WITH inserted AS (${insert} RETURNING 1) SELECT count(*)::int AS "${table}" FROM inserted`;
}

/** The ordinals of one batch: the runner binds $1 (first) and $2 (end, exclusive). */
export const BATCH_ORDINALS = 'generate_series($1::int, $2::int - 1)';
