/**
 * Matches over time as bars (uPlot). Dragging across the chart selects a span; releasing zooms
 * the time range to it. Colours come from the theme's CSS variables, so dark and light both read.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';

export interface Bucket {
  key: number;
  count: number;
}

interface Props {
  buckets: Bucket[];
  intervalMs: number;
  onZoom(fromMs: number, toMs: number): void;
}

const HEIGHT = 140;

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/** The page's theme, followed as it changes, so that the chart is drawn again in its colours. */
function useTheme(): string | undefined {
  const [theme, setTheme] = useState(document.documentElement.dataset.theme);
  useEffect(() => {
    const watch = new MutationObserver(() => setTheme(document.documentElement.dataset.theme));
    watch.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => watch.disconnect();
  }, []);
  return theme;
}

export function Histogram({ buckets, intervalMs, onZoom }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const theme = useTheme();
  // the latest callback, read by the plot's hook without rebuilding the plot
  const zoom = useRef(onZoom);
  zoom.current = onZoom;

  useEffect(() => {
    const el = box.current!;
    const text = cssVar('--pico-muted-color', '#888');
    const grid = cssVar('--pico-muted-border-color', '#ddd');
    const bar = cssVar('--pico-primary', '#1e88e5');
    const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const opts: uPlot.Options = {
      width: Math.max(el.clientWidth, 200),
      height: HEIGHT,
      ms: 1,
      legend: { show: false },
      cursor: { drag: { x: true, y: false, setScale: false }, points: { show: false } },
      scales: { x: { time: true, range: (_u, min, max) => [min, max + intervalMs] } },
      axes: [axis, { ...axis, size: 50, values: (_u, ticks) => ticks.map((v) => (Number.isInteger(v) ? v.toLocaleString('en-US') : '')) }],
      series: [
        {},
        {
          label: 'matches',
          fill: bar,
          stroke: bar,
          paths: uPlot.paths.bars!({ size: [0.9, Infinity], align: 1 }),
          points: { show: false },
        },
      ],
      hooks: {
        setSelect: [
          (u) => {
            const { left, width } = u.select;
            if (width < 3) return;
            const from = u.posToVal(left, 'x');
            const to = u.posToVal(left + width, 'x');
            u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
            zoom.current(Math.floor(from), Math.ceil(to));
          },
        ],
      },
    };
    const data: uPlot.AlignedData = [buckets.map((b) => b.key), buckets.map((b) => b.count)];
    const plot = new uPlot(opts, data, el);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(el.clientWidth, 200), height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [buckets, intervalMs, theme]);

  return <div ref={box} class="histogram" aria-label="Matches over time; drag across to zoom" data-buckets={buckets.length} />;
}
