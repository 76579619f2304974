/**
 * Structured JSON logs (pino). Credentials never reach a log line: the redaction list below
 * covers every place a key, token or bootstrap secret could travel.
 */
import { pino, type Logger, type LevelWithSilent } from 'pino';

export type { Logger };

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-svc-cluster-secret"]',
  'headers["x-svc-cluster-secret"]',
  'secret',
  '*.secret',
  'headers.authorization',
  'authorization',
  'api_key',
  'apiKey',
  'bootstrapKey',
  'token',
  '*.api_key',
  '*.token',
];

export function createLogger(level: LevelWithSilent, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: { service: 'svc' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination as pino.DestinationStream | undefined,
  );
}
