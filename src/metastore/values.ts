/**
 * Conversions between API values and column values: JSON held as text, integers checked to be
 * exact in a JS number, constraint violations recognised across both drivers.
 */

export type JsonObject = Record<string, unknown>;

export function toJsonText(value: unknown, what: string): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`${what} is not JSON serializable`);
  return text;
}

export function parseJsonObject(text: string, what: string): JsonObject {
  const value: unknown = JSON.parse(text);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(`${what} in the metastore is not a JSON object`);
  }
  return value as JsonObject;
}

export function parseJsonArray(text: string, what: string): unknown[] {
  const value: unknown = JSON.parse(text);
  if (!Array.isArray(value)) throw new TypeError(`${what} in the metastore is not a JSON array`);
  return value;
}

/** An integer column value: it must survive the round trip through bigint columns exactly. */
export function int(value: number, what: string): number {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${what} must be a safe integer, got ${value}`);
  return value;
}

/** Unique or primary key violation: SQLite's SQLITE_CONSTRAINT_* or PostgreSQL's 23505. */
export function isUniqueViolation(err: unknown): boolean {
  if (typeof err !== 'object' || err === null || !('code' in err)) return false;
  const code = (err as { code: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** Text order by UTF-16 code units, as JS `<`: database collations differ by dialect and locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
