/**
 * Samples a process's resident memory from /proc/<pid>/status: VmRSS periodically, VmHWM
 * (the kernel's own peak) on demand. Where /proc is missing the figures stay undefined.
 */
import fs from 'node:fs';

export interface MemorySample {
  /** milliseconds since sampling started */
  atMs: number;
  rssBytes: number;
}

export class MemorySampler {
  private timer: NodeJS.Timeout | undefined;
  private started = 0;
  private lastKept = -Infinity;
  peakSampledBytes: number | undefined;
  /** a coarse timeline, one point per timelineStepMs */
  readonly timeline: MemorySample[] = [];

  constructor(
    private readonly pid: number,
    private readonly timelineStepMs = 1000,
  ) {}

  start(intervalMs: number): void {
    this.started = performance.now();
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** reads VmRSS now; undefined once the process is gone */
  sample(): number | undefined {
    const rss = readStatusBytes(this.pid, 'VmRSS');
    if (rss === undefined) return undefined;
    if (this.peakSampledBytes === undefined || rss > this.peakSampledBytes) this.peakSampledBytes = rss;
    const atMs = performance.now() - this.started;
    if (atMs - this.lastKept >= this.timelineStepMs) {
      this.timeline.push({ atMs: Math.round(atMs), rssBytes: rss });
      this.lastKept = atMs;
    }
    return rss;
  }

  /** the kernel's resident high-water mark of the process */
  highWaterMarkBytes(): number | undefined {
    return readStatusBytes(this.pid, 'VmHWM');
  }
}

function readStatusBytes(pid: number, key: string): number | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const m = new RegExp(`^${key}:\\s+(\\d+)\\s+kB`, 'm').exec(text);
  return m ? Number(m[1]) * 1024 : undefined;
}
