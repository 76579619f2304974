/**
 * The `_cat` output, as Elasticsearch renders it: aligned text columns (numbers to the right),
 * `?v` for a header row, `?h=` to choose columns (names, aliases or wildcards), `?s=` to sort
 * (`col`, `col:desc`, several), `?bytes=` for size units, `?format=json` for an array of objects
 * with string values, and `?help` for the column list.
 */
import { BadRequestError } from '../../common/index.js';
import { wildcardToRegExp } from '../../engine/index.js';
import { boolParam, stringParam, type QueryParams } from '../query-params.js';
import { bytesFormatter } from './units.js';

export type CatCell = string | number | null;

export interface CatColumn {
  name: string;
  aliases?: readonly string[];
  /** `bytes` cells are sizes in bytes, printed per `?bytes=`; numbers and sizes align right */
  kind?: 'text' | 'number' | 'bytes';
  /** shown without `?h=` */
  standard?: boolean;
  description: string;
}

export interface CatOutput {
  contentType: string;
  body: string;
}

interface Display {
  column: CatColumn;
  /** the name the client asked for (header row and JSON keys) */
  label: string;
}

function selectColumns(columns: readonly CatColumn[], h: string | undefined): Display[] {
  if (h === undefined || h === '') return columns.filter((c) => c.standard).map((column) => ({ column, label: column.name }));
  const out: Display[] = [];
  for (const requested of h.split(',').map((s) => s.trim()).filter((s) => s.length > 0)) {
    if (requested.includes('*')) {
      const re = wildcardToRegExp(requested);
      for (const column of columns) if (re.test(column.name)) out.push({ column, label: column.name });
      continue;
    }
    const column = columns.find((c) => c.name === requested || c.aliases?.includes(requested));
    // Elasticsearch ignores unknown column names
    if (column) out.push({ column, label: requested });
  }
  return out;
}

function findColumn(columns: readonly CatColumn[], name: string): CatColumn {
  const column = columns.find((c) => c.name === name || c.aliases?.includes(name));
  if (!column) throw new BadRequestError(`Unable to sort by unknown sort key [${name}]`);
  return column;
}

function compareCells(a: CatCell, b: CatCell): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const sa = String(a);
  const sb = String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

function sortRows(columns: readonly CatColumn[], rows: Array<Record<string, CatCell>>, s: string | undefined): void {
  if (s === undefined || s === '') return;
  const keys = s.split(',').map((part) => {
    const [name, order] = part.trim().split(':');
    if (order !== undefined && order !== 'asc' && order !== 'desc') throw new BadRequestError(`unsupported sort order [${order}]`);
    return { column: findColumn(columns, name!), descending: order === 'desc' };
  });
  rows.sort((a, b) => {
    for (const { column, descending } of keys) {
      const c = compareCells(a[column.name] ?? null, b[column.name] ?? null);
      if (c !== 0) return descending ? -c : c;
    }
    return 0;
  });
}

function helpText(columns: readonly CatColumn[]): string {
  const nameWidth = Math.max(...columns.map((c) => c.name.length));
  const aliasWidth = Math.max(...columns.map((c) => (c.aliases ?? []).join(',').length));
  return columns
    .map((c) => `${c.name.padEnd(nameWidth)} | ${(c.aliases ?? []).join(',').padEnd(aliasWidth)} | ${c.description}`)
    .join('\n')
    .concat('\n');
}

/** Renders rows (keyed by column name) for a `_cat` request. */
export function renderCat(columns: readonly CatColumn[], rows: Array<Record<string, CatCell>>, params: QueryParams): CatOutput {
  if (boolParam(params, 'help')) return { contentType: 'text/plain; charset=UTF-8', body: helpText(columns) };
  const format = (stringParam(params, 'format') ?? 'txt').toLowerCase();
  if (format !== 'txt' && format !== 'text' && format !== 'json') {
    throw new BadRequestError(`unsupported format [${format}]: use txt or json`);
  }
  const displays = selectColumns(columns, stringParam(params, 'h'));
  sortRows(columns, rows, stringParam(params, 's'));
  const formatBytes = bytesFormatter(stringParam(params, 'bytes'));
  const text = (column: CatColumn, cell: CatCell): string | null => {
    if (cell === null) return null;
    if (column.kind === 'bytes' && typeof cell === 'number') return formatBytes(cell);
    return String(cell);
  };

  if (format === 'json') {
    const objects = rows.map((row) => {
      const obj: Record<string, string | null> = {};
      for (const { column, label } of displays) obj[label] = text(column, row[column.name] ?? null);
      return obj;
    });
    return { contentType: 'application/json; charset=UTF-8', body: JSON.stringify(objects) };
  }

  const lines: string[][] = rows.map((row) => displays.map(({ column }) => text(column, row[column.name] ?? null) ?? ''));
  if (boolParam(params, 'v')) lines.unshift(displays.map((d) => d.label));
  const widths = displays.map((_, i) => Math.max(0, ...lines.map((line) => line[i]!.length)));
  const rightAligned = displays.map((d) => d.column.kind === 'number' || d.column.kind === 'bytes');
  const out = lines.map((line) => {
    const cells = line.map((cell, i) => {
      if (rightAligned[i]) return cell.padStart(widths[i]!);
      // the last column is not padded on the right
      return i === line.length - 1 ? cell : cell.padEnd(widths[i]!);
    });
    return `${cells.join(' ')}\n`;
  });
  return { contentType: 'text/plain; charset=UTF-8', body: out.join('') };
}
