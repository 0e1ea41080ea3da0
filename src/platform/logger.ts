// Structured JSON logs. Credentials are redacted wherever they might appear. A request's lines go
// through its record's child logger (src/requestRecord.ts), which puts its request id on each.
import pino from 'pino';
import { config } from './config';

export const logger = pino(
  {
    level: config.logLevel,
    redact: {
      paths: [
        'headers["x-api-key"]',
        'headers["x-api-token"]',
        'headers["x-auth-key"]',
        'headers.authorization',
        'apiKey',
        'token',
      ],
      censor: '[redacted]',
    },
  },
  // LOG_FILE appends synchronously, so every test worker's lines land in one complete file (CI
  // scans the whole run's logs for leaked keys); the default is stdout.
  config.logFile ? pino.destination({ dest: config.logFile, append: true, sync: true }) : undefined,
);
