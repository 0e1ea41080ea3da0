// The report's period, time zone check and per-click rates (src/schema/reports/range.ts).
import {
  hourFromMiddle,
  isTimeZone,
  perClick,
  reportPeriod,
  reportTimeZone,
} from '../../src/schema/reports/range';

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
