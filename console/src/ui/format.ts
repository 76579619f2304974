/** Numbers, sizes and times as a person reads them; times in the browser's own time zone. */

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `2024-03-01 10:00:00.123`, local time: sortable, and unambiguous in a narrow column */
export function formatTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}
