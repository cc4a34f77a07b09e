import pino, { type Logger } from 'pino';
import type { LogLevel } from '../config/config.js';

/**
 * JSON logs on stdout (or the given stream). Redaction is a second line of
 * defence: request logging never includes headers or bodies in the first place.
 */
export function createLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'parley' },
      redact: {
        paths: ['headers.authorization', 'req.headers.authorization', '*.apiKey', '*.modelApiKey', '*.password', '*.token', '*.identifiers', '*.content'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
