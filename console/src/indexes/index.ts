/**
 * Indexes: the indexes the key may read with their document counts and sizes (`_cat/indices`),
 * one index's mapping, and deletion after the name is typed again.
 */
export { Indexes } from './indexes.js';
