// Sub-IDs: up to five values an affiliate tags a follow of a link with (`/s/{urlCode}?sub1=…`), as
// other networks take them (Everflow's sub1-sub5, Awin's clickref, Impact's SubId). The click is
// counted per value, the values are passed on to the brand in the target URL, and the brand
// reports them back on its orders. Pure.

export const SUB_ID_NAMES = ['sub1', 'sub2', 'sub3', 'sub4', 'sub5'] as const;
export type SubIdName = (typeof SUB_ID_NAMES)[number];

export const MAX_SUB_ID_LENGTH = 100;

/** A sub-ID value: 1 to 100 visible ASCII characters (no space, no control or non-ASCII one). */
const SUB_ID = new RegExp(`^[\\x21-\\x7e]{1,${MAX_SUB_ID_LENGTH}}$`);

/**
 * What the reports count values under once a link, hour and slot holds as many values as the
 * rollups keep (migration sub_ids): it holds a space, so no sub-ID can be it.
 */
export const OTHER_SUB_ID_VALUES = '(other values)';

/**
 * How far back a report by sub-ID reaches, in days before the current UTC hour: a year's report
 * ending now fits, with a month to spare. The sub-ID click rollups are kept a day longer
 * (./subIdHistory.ts), so a report never races their deletion.
 */
export const SUB_ID_HISTORY_DAYS = 400;

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The first hour a report by sub-ID may read at `now`. */
export function subIdHistoryStart(now: Date): Date {
  return new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - SUB_ID_HISTORY_DAYS * DAY_MS);
}

/** Sub-ID click rollup rows of hours before this are deleted at `now`. */
export function subIdClicksKeptFrom(now: Date): Date {
  return new Date(subIdHistoryStart(now).getTime() - DAY_MS);
}

export function isSubId(value: string): boolean {
  return SUB_ID.test(value);
}

/** A follow's values by position (sub1 first), null where none or an invalid one was given. */
export type SubIds = readonly (string | null)[];

/**
 * The sub-IDs of a query string (without its `?`): the first `subN` of each name, percent-decoded
 * as URL query values are (`+` is a space, so `%2B` is a plus); an invalid one is dropped. Null
 * when no valid one is left.
 */
export function subIdsOf(query: string): SubIds | null {
  const params = new URLSearchParams(query);
  let found = false;
  const subIds = SUB_ID_NAMES.map((name) => {
    const value = params.get(name);
    if (value === null || !isSubId(value)) return null;
    found = true;
    return value;
  });
  return found ? subIds : null;
}

/** The name of a query pair (`name=value`), decoded; null when it does not decode. */
function pairName(pair: string): string | null {
  const name = pair.split('=', 1)[0]!.replaceAll('+', ' ');
  try {
    return decodeURIComponent(name);
  } catch {
    return null;
  }
}

/**
 * The target with the follow's sub-IDs appended, encoded, after the link's own parameters; a
 * parameter of the target with the name of a given sub-ID gives way to it, so the brand sees the
 * value the click was counted under. The rest of the target is kept as written.
 */
export function withSubIds(target: string, subIds: SubIds): string {
  const hash = target.indexOf('#');
  const fragment = hash < 0 ? '' : target.slice(hash);
  const beforeFragment = hash < 0 ? target : target.slice(0, hash);
  const question = beforeFragment.indexOf('?');
  const path = question < 0 ? beforeFragment : beforeFragment.slice(0, question);
  const query = question < 0 ? '' : beforeFragment.slice(question + 1);
  const given = SUB_ID_NAMES.flatMap((name, i) => {
    const value = subIds[i];
    return value == null ? [] : [{ name, value }];
  });
  const givenNames = new Set<string>(given.map(({ name }) => name));
  const kept = query.split('&').filter((pair) => {
    if (pair === '') return false;
    const name = pairName(pair);
    return name === null || !givenNames.has(name);
  });
  const added = given.map(({ name, value }) => `${name}=${encodeURIComponent(value)}`);
  return `${path}?${[...kept, ...added].join('&')}${fragment}`;
}
