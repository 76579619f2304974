/**
 * The console's entry: applies the theme and mounts the app. Screens live in discover/,
 * indexes/ and access/; api/ talks to the service, ui/ holds shared pieces.
 */
import { render } from 'preact';
import '@picocss/pico/css/pico.min.css';
import 'uplot/dist/uPlot.min.css';
import './styles.css';
import { App } from './app.js';
import { applyStoredTheme } from './ui/index.js';

applyStoredTheme();
render(<App />, document.getElementById('app')!);
