/**
 * Leaf helpers shared by every layer: the error catalogue, document ids, checksums, units.
 * Nothing here imports from another src folder.
 */
export * from './errors.js';
export { IdGenerator, idTimestampMs, ID_EPOCH_MS, CLIENT_KEY_FLAG, clientKey, isClientKey, parseGeneratedId } from './ids.js';
export { crc32 } from './crc32.js';
export { validateIndexName } from './index-name.js';
export { parseDateMath, parseDateValue } from './date-math.js';
export { jsonKind } from './json-kind.js';
export { toThreadError, fromThreadError, type ThreadError } from './thread-errors.js';
export { nameThisThread } from './thread-name.js';
export { isSecureOrLoopbackUrl } from './secure-url.js';
export { humanBytes } from './human-bytes.js';
export { decimalLength, writeDecimal } from './decimal.js';
export { RealMemoryBreaker } from './real-memory.js';
