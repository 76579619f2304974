/**
 * The engine of one node: documents in, searchable segments out. It owns analysis, the
 * write-ahead log, the memtable, segment files, search execution and compaction; it knows
 * nothing of HTTP, Elasticsearch wire types, the cluster or cloud SDKs.
 */
export { Engine } from './engine.js';
export type { EngineOptions, WriteOp, WriteOutcome, WriteAction, WriteResult, UpdateRequest, FoundDocument, NewIndexInit, IndexDefaults } from './engine.js';
export { toProperties, MAPPING_RESPONSE_MAX_FIELDS, IndexMapping } from './mapping/index.js';
export type { Properties, MappingEntry } from './mapping/index.js';
export type { IndexShard } from './shard/index-shard.js';
export { executeSearch, mergeSearchResults } from './search/index.js';
export { AggregationService, TimeZone } from './aggregations/index.js';
export type { AggregationRequest, AggregationServiceOptions, AggSpec, AggResult, PartialWire } from './aggregations/index.js';
export { QueryPool } from './query-pool/index.js';
export type { QueryPoolEvents } from './query-pool/index.js';
export { nextMerge, idleMerge, mergeFromStore, DEFAULT_MERGE_POLICY } from './compaction/index.js';
export type { CompactionEvents, MergePlan, MergePolicyOptions, StoreMergeResult } from './compaction/index.js';
export { SegmentWriterPool } from './segment-writer-pool/index.js';
export type { SearchRequest, SearchResult, SearchHit, SearchTarget, SortKey, SortOrder } from './search/types.js';
export type { SegmentReader, FieldType, FieldInfo } from './segment-reader.js';
export { ReaderCacheBudget, useReaderCacheBudget } from './segment/index.js';
export type { IndexedDocument } from './document/index.js';
export { tokenize, tokenSpans, analyzerFor, standardTokens } from './analysis/index.js';
export type { Analyzer } from './analysis/index.js';
export type { TokenSpan } from './analysis/index.js';
export { compileWildcard, compileLuceneRegexp, isMatchAllWildcard } from './search/patterns.js';
export { resolveIndices, wildcardToRegExp, AliasTable } from './catalog/index.js';
export type { EngineCatalog, IndexRecord, SegmentRecord, ResolveOptions, AliasMap, AliasLink } from './catalog/index.js';
