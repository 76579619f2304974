/**
 * Elasticsearch's `minimum_should_match` spec resolved to an absolute count: an integer (`3`),
 * a negative integer (`-1`: all but one), a percentage (`75%`, `-25%`, rounded down), or
 * conditional specs (`2<-25% 9<3`: up to 2 clauses all are needed, above 2 all but 25%, above 9
 * three). Mirrors `Queries.calculateMinShouldMatch`.
 */

const INTEGER = /^[+-]?\d+$/;
const PERCENT = /^([+-]?\d+)%$/;

/** The count for `optionalCount` clauses, or undefined when the spec cannot be read. */
export function resolveMinimumShouldMatch(optionalCount: number, spec: string | number): number | undefined {
  if (typeof spec === 'number') {
    if (!Number.isInteger(spec)) return undefined;
    return clamp(spec < 0 ? optionalCount + spec : spec);
  }
  const text = spec.trim();
  if (text.includes('<')) return resolveConditional(optionalCount, text);
  return resolveSimple(optionalCount, text);
}

function resolveSimple(optionalCount: number, text: string): number | undefined {
  const pct = PERCENT.exec(text);
  if (pct) {
    const percent = Number(pct[1]);
    const calc = (optionalCount * percent) / 100;
    return clamp(calc < 0 ? optionalCount + Math.trunc(calc) : Math.trunc(calc));
  }
  if (!INTEGER.test(text)) return undefined;
  const calc = Number(text);
  return clamp(calc < 0 ? optionalCount + calc : calc);
}

function resolveConditional(optionalCount: number, text: string): number | undefined {
  let result: number | undefined = optionalCount;
  const specs = text.replace(/\s*<\s*/g, '<').split(/\s+/);
  for (const s of specs) {
    const parts = s.split('<');
    if (parts.length !== 2 || !INTEGER.test(parts[0]!)) return undefined;
    const upperBound = Number(parts[0]);
    if (optionalCount <= upperBound) return result;
    result = resolveSimple(optionalCount, parts[1]!);
    if (result === undefined) return undefined;
  }
  return result;
}

function clamp(n: number): number {
  return n < 0 ? 0 : n;
}
