/**
 * Observability: the structured logger (pino, with secrets redacted) and the svc_* metric
 * registry served at GET /metrics.
 */
export { createLogger, REDACTED_PATHS } from './logger.js';
export type { Logger } from './logger.js';
export { Metrics } from './metrics.js';
export type { IndexBytesSample } from './metrics.js';
export { processFigures, type ProcessFigures } from './process-figures.js';
