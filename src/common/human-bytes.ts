/** Byte counts as Elasticsearch writes them in breaker messages: `512b`, `1.5kb`, `2.0mb`. */
export function humanBytes(n: number): string {
  const units = ['b', 'kb', 'mb', 'gb', 'tb'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${u === 0 ? v : v.toFixed(1)}${units[u]}`;
}
