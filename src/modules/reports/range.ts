// The report's period and its arithmetic, pure: the hours it reads, its local days, its rates.
// Rollups are kept per UTC hour, so a period is read in whole hours.
import { decimalText, exponentOf } from '../../platform/currencies';
import { BadRequestError, shown } from '../../platform/errors';
import { SUB_ID_HISTORY_DAYS, subIdHistoryStart } from '../links/subIds';

export const DEFAULT_REPORT_DAYS = 30;
export const MAX_REPORT_DAYS = 366;

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** An IANA zone name (`Europe/Berlin`, `UTC`): letters, digits, `_ + -`, parts joined by `/`; no offsets. */
const ZONE_NAME = /^[A-Za-z][\w+-]*(\/[A-Za-z0-9][\w+-]*)*$/;

/**
 * Names found to be time zones: asking ICU again (a DateTimeFormat made for the zone) took about
 * 0.15 ms of every report's CPU. Bounded, since names that differ only in case are all zones.
 */
const knownZones = new Set<string>();
const KNOWN_ZONES_MAX = 1_000;

/** Whether `name` is a time zone the report can bucket days in. */
export function isTimeZone(name: string): boolean {
  if (knownZones.has(name)) return true;
  if (name.length > 64 || !ZONE_NAME.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
  } catch {
    return false;
  }
  if (knownZones.size < KNOWN_ZONES_MAX) knownZones.add(name);
  return true;
}

/** The start of the first hour whose middle is at or after `time`. */
export function hourFromMiddle(time: Date): Date {
  return new Date(Math.ceil((time.getTime() - HOUR_MS / 2) / HOUR_MS) * HOUR_MS);
}

export interface ReportPeriod {
  /** The first hour read. */
  from: Date;
  /** Hours that start before this are read. */
  to: Date;
  /** The start of the last hour read (before `from` when the period holds no hour). */
  lastHour: Date;
}

/**
 * The hours a report reads: those whose middle lies in [startAt, endAt), the rule that also puts
 * each hour in a local day, so a period of whole local days reads exactly their hours. Defaults:
 * endAt the end of the current hour, startAt 30 days before endAt. More than 366 days, or startAt
 * not before endAt, is a 400.
 */
export function reportPeriod(
  startAt: Date | null | undefined,
  endAt: Date | null | undefined,
  now: Date,
): ReportPeriod {
  const { start, end } = periodBounds(startAt, endAt, now);
  if (start >= end) throw new BadRequestError('startAt must be before endAt');
  if (end.getTime() - start.getTime() > MAX_REPORT_DAYS * DAY_MS) {
    throw new BadRequestError(`A report covers at most ${MAX_REPORT_DAYS} days`);
  }
  const to = hourFromMiddle(end);
  return { from: hourFromMiddle(start), to, lastHour: new Date(to.getTime() - HOUR_MS) };
}

/**
 * A report by sub-ID reads only hours whose sub-ID clicks are still kept: a period starting
 * earlier is a 400 (its clicks would show as untagged), naming the earliest start.
 */
export function requireSubIdHistory(period: ReportPeriod, now: Date): void {
  const earliest = subIdHistoryStart(now);
  if (period.from < earliest) {
    throw new BadRequestError(
      `A report by sub-ID reaches back ${SUB_ID_HISTORY_DAYS} days: startAt must be at or after ${earliest.toISOString()}`,
    );
  }
}

/** The period's bounds as asked, the defaults filled in: endAt the end of the current hour, startAt 30 days before it. */
function periodBounds(
  startAt: Date | null | undefined,
  endAt: Date | null | undefined,
  now: Date,
): { start: Date; end: Date } {
  const end = endAt ?? new Date(Math.floor(now.getTime() / HOUR_MS + 1) * HOUR_MS);
  return { start: startAt ?? new Date(end.getTime() - DEFAULT_REPORT_DAYS * DAY_MS), end };
}

/**
 * How many days a report's period covers, started days counted, between 1 and MAX_REPORT_DAYS
 * whatever was asked (a period the report refuses is refused when it runs).
 */
export function periodDays(
  startAt: Date | null | undefined,
  endAt: Date | null | undefined,
  now: Date,
): number {
  const { start, end } = periodBounds(startAt, endAt, now);
  const days = Math.ceil((end.getTime() - start.getTime()) / DAY_MS);
  return Number.isFinite(days) ? Math.min(Math.max(days, 1), MAX_REPORT_DAYS) : MAX_REPORT_DAYS;
}

/** The zone for day boundaries; 400 for a name that is not a time zone. */
export function reportTimeZone(timezone: string | null | undefined): string {
  if (timezone === null || timezone === undefined) return 'UTC';
  if (!isTimeZone(timezone)) {
    throw new BadRequestError(
      `timezone must be an IANA time zone name such as Europe/Berlin, not "${shown(timezone)}"`,
    );
  }
  return timezone;
}

/**
 * Earnings per click in the currency with two decimals more than it has (hundredths of a minor
 * unit: 4 for EUR, 2 for JPY, 5 for BHD), rounded half away from zero; null without clicks.
 */
export function earningsPerClick(
  earningsMinor: number,
  clicks: number,
  currency: string,
): number | null {
  if (clicks === 0) return null;
  // In hundredths of a minor unit, rounded in integers: (2 * 100 * earnings + clicks) / (2 * clicks).
  const hundredths = BigInt(Math.abs(earningsMinor)) * 100n;
  const rounded = (2n * hundredths + BigInt(clicks)) / (2n * BigInt(clicks));
  const places = exponentOf(currency) + 2;
  return Number(decimalText(earningsMinor < 0 ? -rounded : rounded, places));
}

/** `part / clicks` rounded to 4 decimals; null without clicks (no rate can be said). */
export function perClick(part: number, clicks: number): number | null {
  if (clicks === 0) return null;
  return Math.round((part / clicks) * 10_000) / 10_000;
}
