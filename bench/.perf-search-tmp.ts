import { CorpusGenerator, chooseQueryWords } from './corpus/index.js';
import { Memtable } from '../src/engine/memtable/index.js';
import { writeSegment, openSegment } from '../src/engine/segment/index.js';
import * as fs from 'node:fs';
import { executeSearch, countMatches, type SearchTarget } from '../src/engine/search/index.js';
import type { Query } from '../src/query/index.js';

const N = Number(process.env.N ?? 1_000_000);
const SEGS = 10;
const gen = new CorpusGenerator({ seed: 1, docs: N });
const words = chooseQueryWords(gen);
const targets: SearchTarget[] = [];
let t0 = Date.now();
let id = 1n;
for (let s = 0; s < SEGS; s++) {
  const m = new Memtable('s' + s);
  for (let i = 0; i < N / SEGS; i++) {
    const json = gen.next();
    const o = JSON.parse(json);
    const fields: any[] = [{ name: '_line', type: 'text', values: [o._line] }, { name: 'service', type: 'keyword', values: [o.service] }, { name: 'host', type: 'keyword', values: [o.host] }, { name: 'level', type: 'keyword', values: [o.level] }];
    if (o.status !== undefined) fields.push({ name: 'status', type: 'long', values: [o.status] });
    if (o.latency_ms !== undefined) fields.push({ name: 'latency_ms', type: 'long', values: [o.latency_ms] });
    m.add({ id: id++, lid: Number(id), ts: o._ts, source: json, fields });
  }
  if (process.env.FILES) {
    fs.mkdirSync('/tmp/perf/segs', { recursive: true });
    const f = '/tmp/perf/segs/s' + s + '.seg';
    await writeSegment(m, f);
    targets.push({ index: 'bench', segment: openSegment(f) });
  } else targets.push({ index: 'bench', segment: m });
}
(globalThis as any).gc?.(); console.log('built', Date.now() - t0, 'ms', words);
const match = (text: string, op: 'or' | 'and' = 'or'): Query => ({ kind: 'match', field: '_line', text, operator: op });
const cases: Array<[string, () => unknown]> = [
  ['rare word newest 100', () => executeSearch(targets, { query: match(words.rare), from: 0, size: 100, sort: [], trackTotalHits: true })],
  ['common newest 100 (tth 10000)', () => executeSearch(targets, { query: match(words.common), from: 0, size: 100, sort: [], trackTotalHits: 10000 })],
  ['common newest 100 (tth true)', () => executeSearch(targets, { query: match(words.common), from: 0, size: 100, sort: [], trackTotalHits: true })],
  ['count common', () => countMatches(targets, match(words.common))],
  ['count AND', () => countMatches(targets, match(words.conjunction.join(' '), 'and'))],
  ['search AND', () => executeSearch(targets, { query: match(words.conjunction.join(' '), 'and'), from: 0, size: 100, sort: [], trackTotalHits: true })],
  ['phrase', () => executeSearch(targets, { query: { kind: 'phrase', field: '_line', text: words.phrase.join(' '), slop: 0 }, from: 0, size: 100, sort: [], trackTotalHits: true })],
  ['prefix wildcard', () => executeSearch(targets, { query: { kind: 'wildcard', field: '_line', pattern: words.prefix + '*' }, from: 0, size: 100, sort: [], trackTotalHits: true })],
  ['recent range + word', () => executeSearch(targets, { query: { kind: 'bool', must: [match(words.recent)], filter: [{ kind: 'range', field: '_ts', gte: words.recentFromMs }], should: [], mustNot: [] }, from: 0, size: 100, sort: [], trackTotalHits: true })],
  ['match_all newest', () => executeSearch(targets, { query: { kind: 'match_all' }, from: 0, size: 100, sort: [], trackTotalHits: true })],
  ['status range sort latency', () => executeSearch(targets, { query: { kind: 'range', field: 'status', gte: 500 }, from: 0, size: 100, sort: [{ field: 'latency_ms', order: 'desc' }], trackTotalHits: true })],
  ['sort by host', () => executeSearch(targets, { query: match(words.common), from: 0, size: 100, sort: [{ field: 'host', order: 'asc' }], trackTotalHits: true })],
  ['score sort', () => executeSearch(targets, { query: match(words.conjunction.join(' ')), from: 0, size: 100, sort: [{ field: '_score', order: 'desc' }], trackTotalHits: true })],
];
const only = process.env.ONLY; for (const [name, f] of cases.filter(([n]) => !only || n.startsWith(only))) {
  const times: number[] = [];
  let r: any;
  for (let i = 0; i < Number(process.env.REPS ?? 15); i++) { const s = process.hrtime.bigint(); r = f(); times.push(Number(process.hrtime.bigint() - s) / 1e6); }
  times.sort((a, b) => a - b);
  console.log(name.padEnd(32), 'median', times[7]!.toFixed(2), 'ms  total', r.total ?? r.count);
}
