import { BadRequestError } from '../../common/errors.js';

/** The operators of the simple syntax, switchable with `flags` (Elasticsearch's bit values). */
export const SimpleFlag = {
  AND: 1,
  NOT: 2,
  OR: 4,
  PREFIX: 8,
  PHRASE: 16,
  PRECEDENCE: 32,
  ESCAPE: 64,
  WHITESPACE: 128,
  FUZZY: 256,
  NEAR: 512,
  SLOP: 512,
} as const;

export const ALL_FLAGS = -1;

/** `"OR|AND|PREFIX"`, `"ALL"`, `"NONE"` or the integer mask. */
export function parseSimpleFlags(flags: string | number): number {
  if (typeof flags === 'number') return flags;
  let mask = 0;
  for (const raw of flags.split('|')) {
    const name = raw.trim().toUpperCase();
    if (name === '') continue;
    if (name === 'ALL') return ALL_FLAGS;
    if (name === 'NONE') continue;
    if (!Object.hasOwn(SimpleFlag, name)) throw new BadRequestError(`Unknown simple_query_string flag [${raw.trim()}]`);
    mask |= SimpleFlag[name as keyof typeof SimpleFlag];
  }
  return mask;
}
