/**
 * Pieces every screen uses: how a refusal or failure is shown, a confirmation dialog, a read-only
 * table, loading state for one API call, number/size/time formats, and the theme switch.
 */
export { ErrorView } from './error-view.js';
export { ConfirmDialog } from './confirm-dialog.js';
export { useLoad, type Loaded } from './use-load.js';
export { formatBytes, formatCount, formatTime } from './format.js';
export { ThemeToggle, applyStoredTheme } from './theme.js';
export { SimpleTable, type Column } from './simple-table.js';
