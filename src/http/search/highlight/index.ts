/**
 * Search-hit highlighting (the `highlight` option of a search body), as Kibana's Discover and
 * Grafana's logs panel ask for it: the request's options are read once (highlight-request.ts),
 * the query's terms, phrases and patterns are taken from the query AST (query-terms.ts), and for
 * each hit of the returned page the values of the asked fields are read from `_source`, the
 * matching words found with the field's analysis (`_line` and other text fields by token,
 * keywords whole; mark-spans.ts), and cut into tagged fragments (fragments.ts). Nothing here
 * runs a search: only the page's hits are looked at.
 */
export { parseHighlight, type HighlightSpec } from './highlight-request.js';
export { renderHighlight } from './render-highlight.js';
