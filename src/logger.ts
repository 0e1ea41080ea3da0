// Structured JSON logs. Credentials are redacted wherever they might appear.
import pino from 'pino';
import { config } from './config';

export const logger = pino({
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
});
