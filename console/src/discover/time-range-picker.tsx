/**
 * Relative ranges in one click; any other range as two bounds in date math (`now-15m`, `now/d`,
 * `2024-03-01T10:00`), each checked as it is typed, with the reason shown under a bad one.
 */
import { useState } from 'preact/hooks';
import { QUICK_RANGES, boundProblem, rangeBounds, resolveRange, type TimeRange } from './time-range.js';
import { formatTime } from '../ui/index.js';

export function describeRange(range: TimeRange): string {
  switch (range.kind) {
    case 'relative':
      return range.label;
    case 'absolute':
      return `${formatTime(range.fromMs)} → ${formatTime(range.toMs)}`;
    case 'math':
      return `${range.from} → ${range.to}`;
  }
}

function BoundField({ label, name, value, problem, onInput }: { label: string; name: string; value: string; problem: string | undefined; onInput(v: string): void }) {
  return (
    <label>
      {label}
      <input
        name={name}
        value={value}
        autoComplete="off"
        spellcheck={false}
        aria-invalid={problem === undefined ? undefined : 'true'}
        aria-describedby={problem === undefined ? undefined : `${name}-problem`}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
      {problem !== undefined && (
        <small id={`${name}-problem`} class="range-problem" role="alert">
          {problem}
        </small>
      )}
    </label>
  );
}

export function TimeRangePicker({ range, onChange }: { range: TimeRange; onChange(range: TimeRange): void }) {
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState(rangeBounds(range).from);
  const [to, setTo] = useState(rangeBounds(range).to);
  const fromProblem = boundProblem(from);
  const toProblem = boundProblem(to);
  const candidate: TimeRange = { kind: 'math', from: from.trim(), to: to.trim() };
  const bounds = fromProblem === undefined && toProblem === undefined ? resolveRange(candidate) : undefined;
  const orderProblem = bounds !== undefined && bounds.fromMs >= bounds.toMs ? 'From must come before To.' : undefined;

  const toggle = () => {
    const current = rangeBounds(range);
    setFrom(current.from);
    setTo(current.to);
    setOpen(!open);
  };
  const choose = (next: TimeRange) => {
    setOpen(false);
    onChange(next);
  };
  const apply = (e: Event) => {
    e.preventDefault();
    if (bounds !== undefined && orderProblem === undefined) choose(candidate);
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
          <form onSubmit={apply} aria-label="Date math range">
            <BoundField label="From" name="from" value={from} problem={fromProblem} onInput={setFrom} />
            <BoundField label="To" name="to" value={to} problem={toProblem} onInput={setTo} />
            {orderProblem !== undefined && (
              <small class="range-problem" role="alert">
                {orderProblem}
              </small>
            )}
            <p class="muted range-help">
              Date math: <code>now-15m</code>, <code>now/d</code>, <code>now-1d/d</code>, or a date such as <code>2024-03-01T10:00</code> (local time).
            </p>
            <button type="submit" name="apply-range" disabled={bounds === undefined || orderProblem !== undefined}>
              Apply range
            </button>
          </form>
        </div>
      )}
    </div>
  );
}
