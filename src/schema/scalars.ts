import { builder } from './builder';
import { BadRequestError } from './errors';

// ISO 8601 date-time (a date alone means midnight UTC); an offset other than Z is honoured.
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseDateTime(value: unknown): Date | null {
  if (typeof value !== 'string' || !ISO_8601.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

builder.scalarType('DateTime', {
  description: 'An ISO 8601 date-time, answered in UTC (2026-01-31T12:00:00.000Z)',
  serialize: (value) => value.toISOString(),
  parseValue: (value) => {
    const date = parseDateTime(value);
    if (!date) throw new BadRequestError(`"${String(value)}" is not an ISO 8601 date-time`);
    return date;
  },
});

builder.scalarType('UUID', {
  description: 'A UUID (8-4-4-4-12 hexadecimal digits)',
  serialize: (value) => value,
  parseValue: (value) => {
    if (!isUuid(value)) throw new BadRequestError(`"${String(value)}" is not a UUID`);
    return value.toLowerCase();
  },
});
