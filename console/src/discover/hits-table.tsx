/** The hits, newest first: time, index and `_line` with the matching words marked; a row opens its document. */
import { highlightPieces } from './highlight.js';
import { hitKey, hitTime, type Hit } from './search-response.js';
import { formatTime } from '../ui/index.js';

interface Props {
  hits: Hit[];
  terms: RegExp[];
  /** keys of hits that arrived by live tail since the last look */
  fresh: Set<string>;
  onOpen(hit: Hit): void;
}

/** What a row shows when a document has no `_line`: its other fields, compactly. */
function lineOf(hit: Hit): string {
  const line = hit._source._line;
  if (typeof line === 'string') return line;
  const { _ts: _t, _lid: _l, ...rest } = hit._source;
  return JSON.stringify(rest);
}

export function HitsTable({ hits, terms, fresh, onOpen }: Props) {
  return (
    <table class="hits striped">
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">_line</th>
        </tr>
      </thead>
      <tbody>
        {hits.map((hit) => {
          const ts = hitTime(hit);
          const key = hitKey(hit);
          const open = () => onOpen(hit);
          return (
            <tr
              key={key}
              class={fresh.has(key) ? 'hit fresh' : 'hit'}
              tabIndex={0}
              data-id={hit._id}
              onClick={open}
              onKeyDown={(e) => e.key === 'Enter' && open()}
            >
              <td class="ts">{ts === undefined ? '' : formatTime(ts)}</td>
              <td class="line">
                {highlightPieces(lineOf(hit), terms).map((p, i) => (p.match ? <mark key={i}>{p.text}</mark> : p.text))}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
