/**
 * The fields of a successful write's answer (`_index` … `_primary_term`), as the document APIs
 * answer and as a `_bulk` item holds them (with `status`), in pieces: the `_bulk` answer copies
 * the constant pieces as bytes (bulk-response.ts), the document APIs join them as text.
 */
import type { WriteOutcome, WriteResult } from '../../engine/index.js';

/** HTTP status of a write's result, as Elasticsearch answers it per item and per request. */
export function writeStatus(result: WriteResult): number {
  return result === 'created' ? 201 : result === 'not_found' ? 404 : 200;
}

/** Everything up to the `_id` value. */
export function writtenHead(index: string): string {
  return `"_index":${JSON.stringify(index)},"_type":"_doc","_id":`;
}

/** Between the `_id` value and the `_version` value. */
export const WRITTEN_VERSION = ',"_version":';

/** Between the `_version` value and the `_seq_no` value. */
export function writtenResultPart(result: WriteResult): string {
  // a noop writes nothing: no shard took part
  const shards = result === 'noop' ? '{"total":0,"successful":0,"failed":0}' : '{"total":1,"successful":1,"failed":0}';
  return `,"result":"${result}","_shards":${shards},"_seq_no":`;
}

/** After the `_seq_no` value. */
export const WRITTEN_TERM = ',"_primary_term":1';

export function writtenFields(outcome: Extract<WriteOutcome, { ok: true }>): string {
  return `${writtenHead(outcome.index)}${JSON.stringify(outcome.id)}${WRITTEN_VERSION}${outcome.version}${writtenResultPart(outcome.result)}${Math.max(0, outcome.lid - 1)}${WRITTEN_TERM}`;
}
