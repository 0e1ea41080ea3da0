// Structured JSON logs. Credentials are redacted wherever they might appear; every line written
// while a request is answered carries its request id.
import pino from 'pino';
import { config } from './config';
import { currentRequestId } from './requestId';

export const logger = pino(
  {
    level: config.logLevel,
    mixin: () => {
      const requestId = currentRequestId();
      return requestId === undefined ? {} : { requestId };
    },
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
