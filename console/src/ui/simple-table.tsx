/** A read-only table: a heading and a cell function per column, one row per item. */
import type { ComponentChildren } from 'preact';

export type Column<T> = [heading: string, cell: (item: T) => ComponentChildren];

interface Props<T> {
  items: T[];
  columns: Array<Column<T>>;
  /** a stable key per row; also set as the row's `data-key`, for tests and styles */
  rowKey(item: T): string;
  /** set on the table as `data-name` */
  name: string;
}

export function SimpleTable<T>({ items, columns, rowKey, name }: Props<T>) {
  return (
    <table data-name={name}>
      <thead>
        <tr>
          {columns.map(([heading]) => (
            <th key={heading} scope="col">
              {heading}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={rowKey(item)} data-key={rowKey(item)}>
            {columns.map(([heading, cell]) => (
              <td key={heading}>{cell(item)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
