/**
 * The service laid out as one process or as separate role processes for the cluster benchmark
 * (`bench/cluster.ts`): start a layout, send to its api processes, stop it.
 */
export { startSingleLayout, startSplitLayout, type Layout, type SplitLayoutOptions } from './layout.js';
