/** Relative ranges in one click; an absolute range from two local date-times. */
import { useState } from 'preact/hooks';
import { QUICK_RANGES, fromLocalInput, resolveRange, toLocalInput, type TimeRange } from './time-range.js';
import { formatTime } from '../ui/index.js';

export function describeRange(range: TimeRange): string {
  return range.kind === 'relative' ? range.label : `${formatTime(range.fromMs)} → ${formatTime(range.toMs)}`;
}

export function TimeRangePicker({ range, onChange }: { range: TimeRange; onChange(range: TimeRange): void }) {
  const [open, setOpen] = useState(false);
  const bounds = resolveRange(range);
  const [from, setFrom] = useState(toLocalInput(bounds.fromMs));
  const [to, setTo] = useState(toLocalInput(bounds.toMs));
  const fromMs = fromLocalInput(from);
  const toMs = fromLocalInput(to);
  const valid = fromMs !== undefined && toMs !== undefined && fromMs < toMs;

  const toggle = () => {
    const now = resolveRange(range);
    setFrom(toLocalInput(now.fromMs));
    setTo(toLocalInput(now.toMs));
    setOpen(!open);
  };
  const choose = (next: TimeRange) => {
    setOpen(false);
    onChange(next);
  };

  return (
    <div class="time-range">
      <button class="outline" name="time-range" aria-expanded={open} onClick={toggle}>
        {describeRange(range)}
      </button>
      {open && (
        <div class="popover" role="dialog" aria-label="Time range">
          <div class="quick">
            {QUICK_RANGES.map((q) => (
              <button key={q.label} class="outline secondary" onClick={() => choose({ kind: 'relative', lastMs: q.lastMs, label: q.label })}>
                {q.label}
              </button>
            ))}
          </div>
          <label>
            From
            <input type="datetime-local" step="1" name="from" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
          </label>
          <label>
            To
            <input type="datetime-local" step="1" name="to" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
          </label>
          <button disabled={!valid} onClick={() => valid && choose({ kind: 'absolute', fromMs: fromMs!, toMs: toMs! })}>
            Apply absolute range
          </button>
        </div>
      )}
    </div>
  );
}
