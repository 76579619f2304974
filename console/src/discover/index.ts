/**
 * Discover: search some indexes with a query string over a time range; the histogram of
 * matches, the newest hits, a document's fields, top values of a field, and a live tail.
 */
export { Discover } from './discover.js';
