/** Parsers of the benchmarks' command-line values (commander). */
import { InvalidArgumentError } from 'commander';

/** An integer of at least `min`; `_` and `,` may group digits (1_000_000, 1,000,000). */
export function integer(min: number): (value: string) => number {
  return (value: string): number => {
    const n = Number(value.replace(/[_,]/g, ''));
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`must be an integer >= ${min}`);
    return n;
  };
}
