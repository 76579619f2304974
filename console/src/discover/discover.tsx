/**
 * The Discover screen: what to search (indexes, query, time range), then the count, the
 * histogram, the hits and the fields. Every search is one `_search` call with the key; a refusal
 * (403 on an index the key may not read) is shown as such.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type Api } from '../api/index.js';
import { ErrorView, formatCount, useLoad } from '../ui/index.js';
import { DEFAULT_RANGE, histogramInterval, resolveRange, type TimeRange } from './time-range.js';
import { TimeRangePicker } from './time-range-picker.js';
import { QueryBox, type QueryError } from './query-box.js';
import { Histogram, type Bucket } from './histogram.js';
import { HitsTable } from './hits-table.js';
import { DocumentView } from './document-view.js';
import { FieldsPanel } from './fields-panel.js';
import { highlightTerms } from './highlight.js';
import { addFilter, fieldClause, firstPageBody, olderPageBody, type SearchInput } from './search-request.js';
import { hitKey, type Hit, type SearchResponse } from './search-response.js';

const PAGE_SIZE = 50;
const TAIL_EVERY_MS = 2000;
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

  // live tail: search again every few seconds; hits not shown yet go on top, marked
  const latest = useRef(results);
  latest.current = results;
  useEffect(() => {
    if (!tail) return;
    let stopped = false;
    const tick = async () => {
      try {
        const next = await search(query, range, indexes);
        if (stopped) return;
        const shown = latest.current?.hits ?? [];
        const seen = new Set(shown.map(hitKey));
        const arrived = next.hits.filter((h) => !seen.has(hitKey(h)));
        setFresh((f) => new Set([...f, ...arrived.map(hitKey)]));
        setResults({ ...next, hits: [...arrived, ...shown].slice(0, TAIL_KEEP), more: latest.current?.more ?? next.more });
        setError(undefined);
      } catch (err) {
        if (!stopped) setError(err);
      }
    };
    const timer = setInterval(() => void tick(), TAIL_EVERY_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [tail, query, range, indexes, search]);

  const toggleTail = () => {
    const next = !tail;
    setTail(next);
    // a live tail follows the clock: an absolute range would never show a new line
    if (next && range.kind === 'absolute') {
      setRange(TAIL_RANGE);
      void run(query, TAIL_RANGE);
    }
  };

  const changeRange = (r: TimeRange) => {
    setRange(r);
    if (r.kind === 'absolute') setTail(false);
    void run(query, r);
  };

  const filter = (field: string, value: string | number | boolean, include: boolean) => {
    const q = addFilter(query, fieldClause(field, value), include);
    setQuery(q);
    void run(q);
  };

  const terms = highlightTerms(results?.input.query ?? '');
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
                  <HitsTable hits={results.hits} terms={terms} fresh={fresh} onOpen={setOpened} />
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
