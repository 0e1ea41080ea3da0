// The DateTime and UUID scalars, parsed as every transport parses them (src/platform/formats.ts).
import { BadRequestError, shown } from '../platform/errors';
import { isUuid, parseDateTime } from '../platform/formats';
import { builder } from './builder';

builder.scalarType('DateTime', {
  description: 'An ISO 8601 date-time, answered in UTC (2026-01-31T12:00:00.000Z)',
  serialize: (value) => value.toISOString(),
  parseValue: (value) => {
    const date = parseDateTime(value);
    if (!date) throw new BadRequestError(`"${shown(String(value))}" is not an ISO 8601 date-time`);
    return date;
  },
});

builder.scalarType('UUID', {
  description: 'A UUID (8-4-4-4-12 hexadecimal digits)',
  serialize: (value) => value,
  parseValue: (value) => {
    if (!isUuid(value)) throw new BadRequestError(`"${shown(String(value))}" is not a UUID`);
    return value.toLowerCase();
  },
});
