/** The hits, newest first: time and `_line` with the words the service matched marked; a row opens its document. */
import { highlightPieces, type Piece } from './highlight.js';
import { hitKey, hitTime, type Hit } from './search-response.js';
import { formatTime } from '../ui/index.js';

interface Props {
  hits: Hit[];
  /** keys of hits that arrived by live tail since the last look */
  fresh: Set<string>;
  onOpen(hit: Hit): void;
}

/** What a row shows: `_line` as highlighted, or when a document has none, its other fields compactly. */
function lineOf(hit: Hit): Piece[] {
  const tagged = hit.highlight?._line?.[0];
  if (tagged !== undefined) return highlightPieces(tagged);
  const line = hit._source._line;
  if (typeof line === 'string') return [{ text: line, match: false }];
  const { _ts: _t, _lid: _l, ...rest } = hit._source;
  return [{ text: JSON.stringify(rest), match: false }];
}

export function HitsTable({ hits, fresh, onOpen }: Props) {
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
                {lineOf(hit).map((p, i) => (p.match ? <mark key={i}>{p.text}</mark> : p.text))}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
