/**
 * The words of `_line` the service matched, as its `highlight` marks them: Discover asks for the
 * whole value (`number_of_fragments: 0`) between tags of its own, and cuts the answer into text
 * pieces, some marked. The pieces are rendered as text, never parsed as HTML, so a line holding
 * markup shows that markup as written.
 */

const PRE = '@svc-mark@';
const POST = '@/svc-mark@';

/** The `highlight` part of a search body. */
export const HIGHLIGHT = { pre_tags: [PRE], post_tags: [POST], fields: { _line: { number_of_fragments: 0 } } };

export type Piece = { text: string; match: boolean };

/** A highlighted value cut at its tags: the text between a pair is marked. */
export function highlightPieces(tagged: string): Piece[] {
  const pieces: Piece[] = [];
  let at = 0;
  while (at < tagged.length) {
    const open = tagged.indexOf(PRE, at);
    const close = open === -1 ? -1 : tagged.indexOf(POST, open + PRE.length);
    if (open === -1 || close === -1) {
      pieces.push({ text: tagged.slice(at), match: false });
      break;
    }
    if (open > at) pieces.push({ text: tagged.slice(at, open), match: false });
    pieces.push({ text: tagged.slice(open + PRE.length, close), match: true });
    at = close + POST.length;
  }
  return pieces;
}
