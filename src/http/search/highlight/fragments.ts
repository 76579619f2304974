/**
 * Cuts a field value with tagged spans into fragments. `number_of_fragments: 0` gives the whole
 * value; a value no longer than `fragment_size` is one fragment. Otherwise each fragment starts at
 * the sentence of the first tagged word not yet shown (at that word when the sentence start is too
 * far back) and runs for about `fragment_size` characters, ended at a word boundary and stretched to
 * finish a tagged word it reaches, at most `number_of_fragments` of them, in value order.
 * (Elasticsearch's unified highlighter cuts at sentence boundaries and may order by score; Kibana
 * and Grafana ask for fragments of 2^31-1 characters, where both give the whole value.)
 */
import type { Span } from './mark-spans.js';

export interface FragmentOptions {
  preTag: string;
  postTag: string;
  fragmentSize: number;
  numberOfFragments: number;
  /** `encoder: html`: escape the value's text (not the tags) */
  html: boolean;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;', '/': '&#x2F;' };

function encode(text: string, html: boolean): string {
  return html ? text.replace(/[&<>"'/]/g, (c) => HTML_ESCAPES[c]!) : text;
}

/** The text from `start` to `end` with its spans tagged. */
function tagged(value: string, start: number, end: number, spans: readonly Span[], o: FragmentOptions): string {
  let out = '';
  let at = start;
  for (const [s, e] of spans) {
    if (e <= start || s >= end) continue;
    out += encode(value.slice(at, s), o.html) + o.preTag + encode(value.slice(s, e), o.html) + o.postTag;
    at = e;
  }
  return out + encode(value.slice(at, end), o.html);
}

/** The end of a fragment: `size` characters on, moved forward to the end of the word it cuts. */
function fragmentEnd(value: string, start: number, size: number): number {
  let end = Math.min(value.length, start + Math.max(1, size));
  while (end < value.length && /[\p{L}\p{N}\p{M}]/u.test(value[end]!)) end++;
  return end;
}

/** Where the sentence holding `at` begins (after `. `, `! `, `? ` or a line break), not before `floor`. */
function sentenceStart(value: string, at: number, floor: number): number {
  for (let i = at - 1; i > floor; i--) {
    const c = value[i]!;
    if (c === '\n' || ((c === ' ' || c === '\t') && /[.!?]/.test(value[i - 1]!))) return i + 1;
  }
  return floor;
}

export function fragmentsOf(value: string, spans: readonly Span[], o: FragmentOptions): string[] {
  if (o.numberOfFragments === 0 || value.length <= o.fragmentSize) return [tagged(value, 0, value.length, spans, o)];
  const out: string[] = [];
  let i = 0;
  let shown = 0;
  while (i < spans.length && out.length < o.numberOfFragments) {
    const sentence = sentenceStart(value, spans[i]![0], shown);
    const start = spans[i]![1] - sentence <= o.fragmentSize ? sentence : spans[i]![0];
    let end = fragmentEnd(value, start, o.fragmentSize);
    while (i < spans.length && spans[i]![0] < end) {
      end = Math.max(end, spans[i]![1]);
      i++;
    }
    out.push(tagged(value, start, end, spans, o).trim());
    shown = end;
  }
  return out;
}

/** `no_match_size`: the start of a value with nothing tagged, cut at a word boundary. */
export function noMatchFragment(value: string, size: number, html: boolean): string {
  if (size >= value.length) return encode(value, html);
  let end = size;
  while (end > 0 && /[\p{L}\p{N}\p{M}]/u.test(value[end]!)) end--;
  return encode(value.slice(0, end > 0 ? end : size).trimEnd(), html);
}
