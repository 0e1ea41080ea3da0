// The text formats every layer checks: ISO 8601 date-times and UUIDs.

// ISO 8601 date-time. A date alone is midnight UTC, and so is a time without an offset: the
// server's own time zone never changes what a request means.
const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseDateTime(value: unknown): Date | null {
  const parts = typeof value === 'string' ? ISO_8601.exec(value) : null;
  if (!parts) return null;
  const [, year, month, day, hour = '00', minute = '00', second = '00', offset] = parts;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return null;
  // Date rolls 2026-02-30 over into March: a real date reads back the same day.
  const calendarDay = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (calendarDay.getUTCMonth() !== Number(month) - 1 || calendarDay.getUTCDate() !== Number(day)) {
    return null;
  }
  const date = new Date(offset || !parts[4] ? (value as string) : `${value as string}Z`);
  if (Number.isNaN(date.getTime())) return null;
  // Years 1 to 9999 in UTC: PostgreSQL has no year 0 (0000-01-01 would be a database error, so a
  // 500), and an offset can push 0001-01-01 or 9999-12-31 out of those four digits.
  const utcYear = date.getUTCFullYear();
  return utcYear >= 1 && utcYear <= 9999 ? date : null;
}

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
