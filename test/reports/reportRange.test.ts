// The report's period, time zone check and per-click rates (src/modules/reports/range.ts), and what
// a report costs (its work, for the operation cost).
import { BadRequestError } from '../../src/platform/errors';
import { REPORT_DAY_COST, reportWork } from '../../src/modules/reports/performanceRows';
import {
  hourFromMiddle,
  isTimeZone,
  MAX_REPORT_DAYS,
  perClick,
  periodDays,
  reportPeriod,
  reportTimeZone,
  requireSubIdHistory,
} from '../../src/modules/reports/range';
import { subIdClicksKeptFrom, subIdHistoryStart } from '../../src/modules/links/subIds';

const at = (iso: string) => new Date(iso);

describe('reportPeriod', () => {
  const now = at('2026-11-24T10:20:00Z');

  test('defaults: the 30 days up to the end of the current hour', () => {
    expect(reportPeriod(undefined, undefined, now)).toEqual({
      from: at('2026-10-25T11:00:00Z'),
      to: at('2026-11-24T11:00:00Z'),
      lastHour: at('2026-11-24T10:00:00Z'),
    });
  });

  test('whole hours are read as given', () => {
    expect(reportPeriod(at('2026-03-01T00:00:00Z'), at('2026-03-04T00:00:00Z'), now)).toEqual({
      from: at('2026-03-01T00:00:00Z'),
      to: at('2026-03-04T00:00:00Z'),
      lastHour: at('2026-03-03T23:00:00Z'),
    });
  });

  test('half hours (a +05:30 midnight) read the hours whose middle is inside', () => {
    expect(reportPeriod(at('2026-02-28T18:30:00Z'), at('2026-03-01T18:30:00Z'), now)).toEqual({
      from: at('2026-02-28T18:00:00Z'),
      to: at('2026-03-01T18:00:00Z'),
      lastHour: at('2026-03-01T17:00:00Z'),
    });
  });

  test('startAt alone: up to the end of the current hour', () => {
    expect(reportPeriod(at('2026-11-01T00:00:00Z'), undefined, now).to).toEqual(
      at('2026-11-24T11:00:00Z'),
    );
  });

  test('366 days are allowed, a millisecond more is refused', () => {
    const end = at('2026-03-01T00:00:00Z');
    expect(() => reportPeriod(at('2025-02-28T00:00:00Z'), end, now)).not.toThrow();
    expect(() => reportPeriod(at('2025-02-27T23:59:59.999Z'), end, now)).toThrow(
      'A report covers at most 366 days',
    );
  });

  test('startAt not before endAt is refused', () => {
    const time = at('2026-03-01T00:00:00Z');
    expect(() => reportPeriod(time, time, now)).toThrow('startAt must be before endAt');
  });
});

test('hourFromMiddle: the first hour whose middle is at or after the time', () => {
  expect(hourFromMiddle(at('2026-03-01T10:00:00Z'))).toEqual(at('2026-03-01T10:00:00Z'));
  expect(hourFromMiddle(at('2026-03-01T10:30:00Z'))).toEqual(at('2026-03-01T10:00:00Z'));
  expect(hourFromMiddle(at('2026-03-01T10:30:00.001Z'))).toEqual(at('2026-03-01T11:00:00Z'));
  expect(hourFromMiddle(at('2026-03-01T10:15:00Z'))).toEqual(at('2026-03-01T10:00:00Z'));
});

describe('time zones', () => {
  test.each([
    'UTC',
    'Europe/Berlin',
    'America/Argentina/Buenos_Aires',
    'Asia/Kolkata',
    'Etc/GMT-14',
  ])('%s is a zone', (name) => expect(isTimeZone(name)).toBe(true));
  test.each(['Mars/Olympus', '+05:30', 'UTC+1', '', 'Europe/', '../etc/passwd', 'x'.repeat(65)])(
    '"%s" is not',
    (name) => expect(isTimeZone(name)).toBe(false),
  );
  test('asked again, a name has the same answer: zones are remembered, other names are not', () => {
    for (const name of ['Europe/Berlin', 'europe/berlin', 'Mars/Olympus', 'UTC+1']) {
      const first = isTimeZone(name);
      expect(isTimeZone(name)).toBe(first);
    }
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
  test('no zone: UTC; an unknown one: 400 naming timezone', () => {
    expect(reportTimeZone(undefined)).toBe('UTC');
    expect(() => reportTimeZone('Mars/Olympus')).toThrow(/^timezone must be an IANA time zone/);
  });
});

test('perClick: 4 decimals, null without clicks', () => {
  expect(perClick(1, 3)).toBe(0.3333);
  expect(perClick(5, 40)).toBe(0.125);
  expect(perClick(0, 10)).toBe(0);
  expect(perClick(3, 0)).toBeNull();
});

describe('periodDays', () => {
  const now = at('2026-11-24T10:20:00Z');

  test('the default period is 30 days', () => {
    expect(periodDays(undefined, undefined, now)).toBe(30);
  });

  test('started days count; the bounds are as asked, or defaulted', () => {
    expect(periodDays(at('2026-03-01T00:00:00Z'), at('2026-03-04T00:00:00Z'), now)).toBe(3);
    expect(periodDays(at('2026-03-01T00:00:00Z'), at('2026-03-04T01:00:00Z'), now)).toBe(4);
    expect(periodDays(undefined, at('2026-03-04T00:00:00Z'), now)).toBe(30);
    expect(periodDays(at('2025-11-24T11:00:00Z'), undefined, now)).toBe(365);
  });

  test('a period the report refuses still weighs between 1 and 366 days', () => {
    expect(periodDays(at('2026-03-04T00:00:00Z'), at('2026-03-01T00:00:00Z'), now)).toBe(1);
    expect(periodDays(at('2020-01-01T00:00:00Z'), at('2026-01-01T00:00:00Z'), now)).toBe(
      MAX_REPORT_DAYS,
    );
  });
});

describe('reportWork', () => {
  const now = at('2026-11-24T10:20:00Z');
  const year = { startAt: at('2025-01-01T00:00:00Z'), endAt: at('2026-01-01T00:00:00Z') };

  test("by day without a brand or campaign reads the affiliate's hours: the cheap rate", () => {
    expect(reportWork({ groupBy: 'day', ...year }, now)).toBe(365 * REPORT_DAY_COST.affiliateHours);
  });

  test.each(['sub1', 'coupon'] as const)(
    "by %s without a brand or campaign filter reads the affiliate's hours and the hours with a value",
    (groupBy) => {
      expect(reportWork({ groupBy, ...year }, now)).toBe(365 * REPORT_DAY_COST.affiliateSplitHours);
    },
  );

  test.each([
    { groupBy: 'coupon' as const, organizationId: '11111111-1111-4111-8111-111111111111' },
    { groupBy: 'brand' as const },
    { groupBy: 'campaign' as const },
    { groupBy: 'link' as const },
    { groupBy: 'day' as const, organizationId: '11111111-1111-4111-8111-111111111111' },
    { groupBy: 'day' as const, campaignId: '11111111-1111-4111-8111-111111111111' },
  ])("%j reads each link's hours: the dear rate", (query) => {
    expect(reportWork({ ...query, ...year }, now)).toBe(365 * REPORT_DAY_COST.linkHours);
  });

  test.each(['updated', 'locked'] as const)(
    "dateType=%s by day reads the affiliate's hours of that date; by any other grouping, the orders themselves: the dearest rate",
    (dateType) => {
      expect(reportWork({ groupBy: 'day', dateType, ...year }, now)).toBe(
        365 * REPORT_DAY_COST.affiliateHours,
      );
      for (const groupBy of ['brand', 'link', 'sub1'] as const) {
        expect(reportWork({ groupBy, dateType, ...year }, now)).toBe(365 * REPORT_DAY_COST.orders);
      }
      const brand = '11111111-1111-4111-8111-111111111111';
      expect(reportWork({ groupBy: 'day', dateType, organizationId: brand, ...year }, now)).toBe(
        365 * REPORT_DAY_COST.orders,
      );
    },
  );

  test('the work grows with the period', () => {
    const month = { startAt: at('2025-12-01T00:00:00Z'), endAt: at('2026-01-01T00:00:00Z') };
    expect(reportWork({ groupBy: 'link', ...year }, now)).toBeGreaterThan(
      reportWork({ groupBy: 'link', ...month }, now) * 10,
    );
  });
});

describe('how far back a report by sub-ID reaches', () => {
  const now = at('2026-11-24T10:20:00Z');

  test('400 days before the current hour; the rollups keep a day more', () => {
    expect(subIdHistoryStart(now)).toEqual(at('2025-10-20T10:00:00Z'));
    expect(subIdClicksKeptFrom(now)).toEqual(at('2025-10-19T10:00:00Z'));
  });

  test('a period from that hour on is read', () => {
    const period = reportPeriod(at('2025-10-20T10:00:00Z'), at('2026-10-01T00:00:00Z'), now);
    expect(() => requireSubIdHistory(period, now)).not.toThrow();
  });

  test('a period from an hour earlier is a 400 naming the earliest start', () => {
    const period = reportPeriod(at('2025-10-20T09:00:00Z'), at('2026-10-01T00:00:00Z'), now);
    expect(() => requireSubIdHistory(period, now)).toThrow(
      new BadRequestError(
        'A report by sub-ID reaches back 400 days: startAt must be at or after 2025-10-20T10:00:00.000Z',
      ),
    );
  });
});
