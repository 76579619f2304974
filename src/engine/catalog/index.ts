/**
 * The engine's view of the catalog: index and segment records it reads and commits through the
 * EngineCatalog interface, and the resolution of index expressions (lists, patterns, aliases).
 */
export type { EngineCatalog, IndexRecord, SegmentRecord } from './catalog.js';
export type { SegmentStore } from './segment-store.js';
export { resolveIndices, wildcardToRegExp } from './resolve-indices.js';
export type { ResolveOptions, AliasMap } from './resolve-indices.js';
export { AliasTable, type AliasLink } from './alias-table.js';
