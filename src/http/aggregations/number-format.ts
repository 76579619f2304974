/**
 * Numbers as Elasticsearch (Java) prints them in keys: `100.0`, `1.0E7`, percentile names `99.9`;
 * and the small subset of Java's DecimalFormat patterns (`0.00`, `#,##0.#`) a `format` may give.
 */

/** Java's Double.toString. */
export function javaDouble(d: number): string {
  if (Number.isNaN(d)) return 'NaN';
  if (d === Infinity) return 'Infinity';
  if (d === -Infinity) return '-Infinity';
  if (d === 0) return Object.is(d, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(d);
  if (abs >= 1e-3 && abs < 1e7) {
    const s = String(d);
    return s.includes('.') || s.includes('e') ? s : `${s}.0`;
  }
  const [mantissa, exponent] = d.toExponential().split('e') as [string, string];
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${exponent.replace('+', '')}`;
}

export interface DecimalFormat {
  format(n: number): string;
}

/** A DecimalFormat pattern: grouping with `,`, required `0` and optional `#` fraction digits. */
export function decimalFormat(pattern: string): DecimalFormat | undefined {
  const m = /^([#,0]*)(?:\.(0*)(#*))?$/.exec(pattern);
  if (!m || (m[1] === '' && m[2] === undefined)) return undefined;
  const grouping = m[1]!.includes(',');
  const minInt = (m[1]!.match(/0/g) ?? []).length;
  const minFrac = m[2]?.length ?? 0;
  const maxFrac = minFrac + (m[3]?.length ?? 0);
  return {
    format(n: number): string {
      if (!Number.isFinite(n)) return javaDouble(n);
      let [int, frac = ''] = Math.abs(n).toFixed(maxFrac).split('.') as [string, string | undefined];
      while (frac.length > minFrac && frac.endsWith('0')) frac = frac.slice(0, -1);
      if (int === '0' && minInt === 0 && frac !== '') int = '';
      int = int.padStart(minInt, '0');
      if (grouping) int = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
      const body = frac === '' ? int : `${int}.${frac}`;
      return n < 0 && Number(body.replace(/,/g, '')) !== 0 ? `-${body}` : body;
    },
  };
}
