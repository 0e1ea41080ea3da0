import { isUuid, parseDateTime } from '../../src/platform/formats';

describe('parseDateTime', () => {
  test.each([
    ['2026-01-31', '2026-01-31T00:00:00.000Z'],
    ['2026-01-31T12:00:00Z', '2026-01-31T12:00:00.000Z'],
    ['2026-01-31T12:00:00+02:00', '2026-01-31T10:00:00.000Z'],
    ['2026-01-31T12:00', '2026-01-31T12:00:00.000Z'],
    ['2026-01-31T12:00:00.123', '2026-01-31T12:00:00.123Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
    ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
  ])('reads %s as %s, without an offset as UTC', (input, expected) => {
    expect(parseDateTime(input)?.toISOString()).toBe(expected);
  });

  test.each([
    '2026-02-30',
    '2026-04-31',
    '2025-02-29',
    '2026-13-01',
    '2026-01-31T24:00:00Z',
    'tomorrow',
    '',
    '2026-1-1',
    // Outside years 1..9999 in UTC, which the database cannot store (found by test/fuzz.test.ts).
    '0000-01-01T00:00:00Z',
    '0001-01-01T00:00:00+14:00',
    '9999-12-31T23:59:59-01:00',
  ])('refuses %j', (input) => {
    expect(parseDateTime(input)).toBeNull();
  });
});

test('isUuid takes 8-4-4-4-12 hexadecimal digits in any case', () => {
  expect(isUuid('11111111-1111-4111-8111-111111111111')).toBe(true);
  expect(isUuid('AAAAAAAA-1111-4111-8111-111111111111')).toBe(true);
  expect(isUuid('11111111111141118111111111111111')).toBe(false);
});
