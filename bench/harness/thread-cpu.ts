/**
 * CPU time per thread of the service over a phase, from /proc/<pid>/task/<tid>/stat, with each
 * thread's name from /proc/<pid>/task/<tid>/comm. The main thread is the one whose tid is the
 * pid. Node 20 names no thread (every `comm` is the process's, `node`), so the service names its
 * own worker threads (`svc-query`, `svc-seg-writer`, `svc-flush`, `svc-catalog`); the threads left
 * as `node` are Node's own: V8's platform threads (garbage collection, compilation) and the libuv
 * pool (file system, zlib).
 * Threads are sampled every half second, so that one ending during the phase still counts up to
 * its last sample; what ended threads used after it shows as the remainder.
 */
import fs from 'node:fs';
import { processCpuSeconds, statCpuSeconds } from './cpu-time.js';

export interface ThreadCpu {
  tid: number;
  /** `main` for the main thread, else the thread's `comm` */
  name: string;
  cpuSeconds: number;
  /** cpuSeconds / wall seconds: 1.0 is one core kept busy */
  cores: number;
  /** false when the thread ended before the phase did */
  alive: boolean;
}

export interface PhaseThreadCpu {
  wallSeconds: number;
  threads: ThreadCpu[];
  /** CPU the process used that no sampled thread accounts for (threads that ended between samples) */
  unaccountedCpuSeconds: number | null;
}

interface Seen {
  name: string;
  start: number;
  last: number;
}

export class ThreadCpuMeter {
  private seen = new Map<number, Seen>();
  private processStart: number | undefined;
  private wallStart = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly pid: number) {}

  begin(sampleEveryMs = 500): void {
    this.seen = new Map();
    this.processStart = processCpuSeconds(this.pid);
    this.wallStart = performance.now();
    this.sample(true);
    clearInterval(this.timer);
    this.timer = setInterval(() => this.sample(false), sampleEveryMs);
    this.timer.unref();
  }

  end(): PhaseThreadCpu {
    clearInterval(this.timer);
    this.timer = undefined;
    const alive = this.sample(false);
    const wallSeconds = (performance.now() - this.wallStart) / 1000;
    const threads: ThreadCpu[] = [];
    let sum = 0;
    for (const [tid, s] of this.seen) {
      const cpuSeconds = s.last - s.start;
      sum += cpuSeconds;
      threads.push({ tid, name: s.name, cpuSeconds, cores: cpuSeconds / wallSeconds, alive: alive.has(tid) });
    }
    threads.sort((a, b) => b.cpuSeconds - a.cpuSeconds || a.tid - b.tid);
    const processEnd = processCpuSeconds(this.pid);
    const unaccounted = processEnd === undefined || this.processStart === undefined ? null : Math.max(0, processEnd - this.processStart - sum);
    return { wallSeconds, threads, unaccountedCpuSeconds: unaccounted };
  }

  /** reads every thread; a thread first seen now started during the phase (from 0) unless `initial` */
  private sample(initial: boolean): Set<number> {
    const alive = new Set<number>();
    let tids: string[];
    try {
      tids = fs.readdirSync(`/proc/${this.pid}/task`);
    } catch {
      return alive;
    }
    for (const entry of tids) {
      const tid = Number(entry);
      const cpu = statCpuSeconds(`/proc/${this.pid}/task/${tid}/stat`);
      if (cpu === undefined) continue;
      alive.add(tid);
      const known = this.seen.get(tid);
      if (known) {
        // a smaller figure: the tid was reused by a new thread; keep what the old one used
        if (cpu < known.last) known.start -= known.last;
        known.last = cpu;
        // a worker names itself once it runs: a thread first seen before that is named later
        if (known.name === 'node') known.name = threadName(this.pid, tid);
        continue;
      }
      this.seen.set(tid, { name: threadName(this.pid, tid), start: initial ? cpu : 0, last: cpu });
    }
    return alive;
  }
}

function threadName(pid: number, tid: number): string {
  if (tid === pid) return 'main';
  try {
    return fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
  } catch {
    return '?';
  }
}
