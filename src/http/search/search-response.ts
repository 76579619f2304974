/**
 * Renders a SearchResult as the Elasticsearch response body. Stored `_source` texts are spliced
 * into the JSON as they are, never parsed and re-serialized unless a source filter,
 * `fields`/`docvalue_fields` or `highlight` ask (then once per hit).
 */
import type { SearchResult } from '../../engine/index.js';
import { renderHitFields, sourceValues, type FieldTypeLookup, type SourceValues } from './hit-fields.js';
import { renderHighlight } from './highlight/index.js';
import { filterSource } from './source-filter.js';
import type { EsSearch } from './search-request.js';

export interface RenderContext {
  tookMs: number;
  shards: number;
  search: EsSearch;
  /** field types of the hits' indexes, for `fields` and `docvalue_fields` */
  typeOf: FieldTypeLookup;
  /** rendered `aggregations` object text, when the request had aggregations */
  aggregationsJson?: string;
  scrollId?: string;
  /** how many leading sort values a hit shows (a scroll may sort on a hidden `_doc` last) */
  sortValuesShown?: number;
}

export function renderSearchResponse(result: SearchResult & { aggregationsJson?: string }, ctx: RenderContext): string {
  const { search } = ctx;
  const showSort = search.explicitSort || search.request.sort.length === 0;
  const parts: string[] = [];
  for (const hit of result.hits) {
    let text = `{"_index":${JSON.stringify(hit.index)},"_type":"_doc","_id":"${hit.id}"`;
    if (search.version) text += ',"_version":1';
    text += `,"_score":${scoreText(hit.score)}`;
    const source = filterSource(search.source, hit.source);
    if (source !== undefined) text += `,"_source":${source}`;
    let parsed: SourceValues | undefined;
    const values = () => (parsed ??= sourceValues(hit.source));
    const fields = renderHitFields(values, hit.index, search.docvalueFields, search.fetchFields, ctx.typeOf);
    if (fields !== undefined) text += `,"fields":${fields}`;
    const highlight = renderHighlight(values, hit.index, search.highlight, ctx.typeOf);
    if (highlight !== undefined) text += `,"highlight":${highlight}`;
    if (showSort) {
      const values = ctx.sortValuesShown === undefined ? hit.sortValues : hit.sortValues.slice(0, ctx.sortValuesShown);
      text += `,"sort":${JSON.stringify(values)}`;
    }
    parts.push(text + '}');
  }
  const total = totalText(result, search);
  let body = ctx.scrollId !== undefined ? `{"_scroll_id":${JSON.stringify(ctx.scrollId)},` : '{';
  body += `"took":${ctx.tookMs},"timed_out":false`;
  if (result.terminatedEarly) body += ',"terminated_early":true';
  body += `,"_shards":{"total":${ctx.shards},"successful":${ctx.shards},"skipped":0,"failed":0}`;
  body += `,"hits":{${total}"max_score":${scoreText(result.maxScore)},"hits":[${parts.join(',')}]}`;
  const aggregations = ctx.aggregationsJson ?? result.aggregationsJson;
  if (aggregations !== undefined) body += `,"aggregations":${aggregations}`;
  return body + '}';
}

function totalText(result: SearchResult, search: EsSearch): string {
  if (search.request.trackTotalHits === false) return '';
  if (search.restTotalHitsAsInt) return `"total":${result.total},`;
  return `"total":{"value":${result.total},"relation":"${result.totalRelation}"},`;
}

function scoreText(score: number | null): string {
  return score === null || !Number.isFinite(score) ? 'null' : String(score);
}
