/**
 * The Discover screen: what to search (indexes, query, time range), then the count, the
 * histogram, the hits and the fields. Every search is one `_search` call with the key; a refusal
 * (403 on an index the key may not read) is shown as such.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type Api } from '../api/index.js';
import { ErrorView, formatCount, useLoad } from '../ui/index.js';
import { DEFAULT_RANGE, followsClock, histogramInterval, resolveRange, type TimeRange } from './time-range.js';
import { TimeRangePicker } from './time-range-picker.js';
import { QueryBox, type QueryError } from './query-box.js';
import { Histogram, type Bucket } from './histogram.js';
import { HitsTable } from './hits-table.js';
import { DocumentView } from './document-view.js';
import { FieldsPanel } from './fields-panel.js';
import { addFilter, fieldClause, firstPageBody, newerBody, olderPageBody, type SearchInput } from './search-request.js';
import { hitKey, hitTime, type Hit, type SearchResponse } from './search-response.js';

const PAGE_SIZE = 50;
const TAIL_EVERY_MS = 2000;
/** live tail takes at most this many new rows a round; the rest come in the next rounds */
const TAIL_PAGE = 500;
/** live tail keeps this many rows, dropping the oldest */
const TAIL_KEEP = 1000;
const TAIL_RANGE: TimeRange = { kind: 'relative', lastMs: 15 * 60_000, label: 'Last 15 minutes' };

interface Results {
  input: SearchInput;
  total: number;
  buckets: Bucket[];
  intervalMs: number;
  hits: Hit[];
  /** false once a page came back short: nothing older matches */
  more: boolean;
}

interface CatIndex {
  index: string;
}

export function Discover({ client }: { client: Api }) {
  const [indexes, setIndexes] = useState('*');
  const [query, setQuery] = useState('');
  const [range, setRange] = useState<TimeRange>(DEFAULT_RANGE);
  const [results, setResults] = useState<Results | undefined>();
  const [error, setError] = useState<unknown>();
  const [queryError, setQueryError] = useState<QueryError | undefined>();
  const [busy, setBusy] = useState(false);
  const [tail, setTail] = useState(false);
  const [fresh, setFresh] = useState<Set<string>>(new Set());
  const [opened, setOpened] = useState<Hit | undefined>();
  const [history, setHistory] = useState<string[]>([]);
  const known = useLoad(() => client.get<CatIndex[]>('/_cat/indices?format=json&h=index'), [client]);

  const search = useCallback(
    async (q: string, r: TimeRange, idx: string) => {
      const { fromMs, toMs } = resolveRange(r);
      const input = { query: q, fromMs, toMs };
      const interval = histogramInterval(toMs - fromMs);
      const res = await client.post<SearchResponse>(`/${encodeURIComponent(idx)}/_search`, firstPageBody(input, PAGE_SIZE, interval.text));
      const buckets = (res.aggregations?.over_time?.buckets ?? []).map((b) => ({ key: Number(b.key), count: b.doc_count }));
      const results: Results = { input, total: res.hits.total?.value ?? 0, buckets, intervalMs: interval.ms, hits: res.hits.hits, more: res.hits.hits.length === PAGE_SIZE };
      return results;
    },
    [client],
  );

  const fail = (err: unknown, q: string) => {
    const position = err instanceof ApiError ? err.details.position : undefined;
    if (err instanceof ApiError && err.status === 400 && typeof position === 'number') {
      setQueryError({ query: q, position, reason: err.reason });
      setError(undefined);
    } else {
      setError(err);
      setQueryError(undefined);
    }
    setResults(undefined);
  };

  const run = async (q = query, r = range, idx = indexes) => {
    setBusy(true);
    setFresh(new Set());
    if (q.trim() !== '') setHistory((h) => [...h.filter((x) => x !== q), q].slice(-50));
    try {
      setResults(await search(q, r, idx));
      setError(undefined);
      setQueryError(undefined);
    } catch (err) {
      fail(err, q);
    } finally {
      setBusy(false);
    }
  };

  // the first search when the screen opens, once
  useEffect(() => {
    void run();
  }, []);

  const older = async () => {
    if (results === undefined) return;
    const last = results.hits[results.hits.length - 1];
    if (last?.sort === undefined) return;
    setBusy(true);
    try {
      const res = await client.post<SearchResponse>(`/${encodeURIComponent(indexes)}/_search`, olderPageBody(results.input, PAGE_SIZE, last.sort));
      setResults({ ...results, hits: [...results.hits, ...res.hits.hits], more: res.hits.hits.length === PAGE_SIZE });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  // live tail: every few seconds, ask only for what is not older than the newest row shown;
  // what was not shown yet goes on top, marked, and into the count and the histogram
  const latest = useRef(results);
  latest.current = results;
  useEffect(() => {
    if (!tail) return;
    let stopped = false;
    const tick = async () => {
      const shown = latest.current;
      if (shown === undefined) return;
      try {
        const res = await client.post<SearchResponse>(`/${encodeURIComponent(indexes)}/_search`, newerBody(shown.input.query, newestShown(shown), TAIL_PAGE));
        if (stopped || latest.current !== shown) return;
        const seen = new Set(shown.hits.map(hitKey));
        const arrived = res.hits.hits.filter((h) => !seen.has(hitKey(h))).reverse();
        setError(undefined);
        if (arrived.length === 0) return;
        setFresh((f) => new Set([...f, ...arrived.map(hitKey)]));
        setResults({
          ...shown,
          total: shown.total + arrived.length,
          buckets: countIn(shown.buckets, shown.intervalMs, arrived),
          hits: [...arrived, ...shown.hits].slice(0, TAIL_KEEP),
        });
      } catch (err) {
        if (!stopped) setError(err);
      }
    };
    const timer = setInterval(() => void tick(), TAIL_EVERY_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [tail, indexes, client]);

  const toggleTail = () => {
    const next = !tail;
    setTail(next);
    // a live tail follows the clock: a range that ends before now would never show a new line
    if (next && !followsClock(range)) {
      setRange(TAIL_RANGE);
      void run(query, TAIL_RANGE);
    }
  };

  const changeRange = (r: TimeRange) => {
    setRange(r);
    if (!followsClock(r)) setTail(false);
    void run(query, r);
  };

  const filter = (field: string, value: string | number | boolean, include: boolean) => {
    const q = addFilter(query, fieldClause(field, value), include);
    setQuery(q);
    void run(q);
  };

  return (
    <section class="discover-screen">
      <div class="search-bar">
        <input
          name="indexes"
          aria-label="Indexes"
          list="known-indexes"
          placeholder="indexes: logs-*,app"
          value={indexes}
          onInput={(e) => setIndexes(e.currentTarget.value)}
          onKeyDown={(e) => e.key === 'Enter' && void run()}
        />
        <datalist id="known-indexes">
          {(known.value ?? []).map((i) => (
            <option key={i.index} value={i.index} />
          ))}
        </datalist>
        <QueryBox value={query} error={queryError} history={history} onInput={setQuery} onRun={() => void run()} />
        <TimeRangePicker range={range} onChange={changeRange} />
        <button name="search" aria-busy={busy} onClick={() => void run()}>
          Search
        </button>
      </div>
      <p class="shortcuts muted">
        <kbd>/</kbd> query box · <kbd>Enter</kbd> search · <kbd>↑</kbd>/<kbd>↓</kbd> earlier queries · <kbd>Esc</kbd> leave · drag across the chart to zoom
      </p>
      {error !== undefined && <ErrorView error={error} />}
      <div class="discover">
        {results !== undefined ? (
          <FieldsPanel client={client} indexes={indexes} input={results.input} onFilter={filter} />
        ) : (
          <div />
        )}
        <div>
          {results !== undefined && (
            <>
              <div class="summary">
                <strong class="hit-count" data-count={results.total}>
                  {formatCount(results.total)} {results.total === 1 ? 'hit' : 'hits'}
                </strong>
                <label>
                  <input type="checkbox" role="switch" name="tail" checked={tail} onChange={toggleTail} />
                  Live tail
                </label>
              </div>
              <Histogram buckets={results.buckets} intervalMs={results.intervalMs} onZoom={(fromMs, toMs) => changeRange({ kind: 'absolute', fromMs, toMs })} />
              {results.hits.length === 0 ? (
                <p class="muted">No hits in this time range.</p>
              ) : (
                <div class="table-scroll">
                  <HitsTable hits={results.hits} fresh={fresh} onOpen={setOpened} />
                </div>
              )}
              {results.more && (
                <button class="outline" name="older" aria-busy={busy} onClick={() => void older()}>
                  Older hits
                </button>
              )}
            </>
          )}
        </div>
      </div>
      {opened !== undefined && <DocumentView hit={opened} onClose={() => setOpened(undefined)} />}
    </section>
  );
}

/** The time of the newest row shown; with none, the start of the range searched. */
function newestShown(results: Results): number {
  let newest = results.input.fromMs;
  for (const hit of results.hits) newest = Math.max(newest, hitTime(hit) ?? newest);
  return newest;
}

/**
 * The histogram with `hits` counted in: `fixed_interval` buckets start at multiples of the
 * interval since the epoch, and a bucket after the last one shown is added with the empty ones
 * before it.
 */
function countIn(buckets: Bucket[], intervalMs: number, hits: Hit[]): Bucket[] {
  const counts = new Map(buckets.map((b) => [b.key, b.count]));
  let last = buckets.length === 0 ? undefined : buckets[buckets.length - 1]!.key;
  for (const hit of hits) {
    const ts = hitTime(hit);
    if (ts === undefined) continue;
    const key = Math.floor(ts / intervalMs) * intervalMs;
    if (last !== undefined) for (let k = last + intervalMs; k < key; k += intervalMs) counts.set(k, 0);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (last === undefined || key > last) last = key;
  }
  return [...counts].sort((a, b) => a[0] - b[0]).map(([key, count]) => ({ key, count }));
}
