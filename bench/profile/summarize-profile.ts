/**
 * Reads a V8 `.cpuprofile` (from `node --cpu-prof`) and totals self time per function and per
 * source file, optionally only over the samples inside given time windows (the benchmark's
 * phases, in the same monotonic microseconds the profile uses).
 */
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface PhaseWindow {
  name: string;
  startUs: number;
  endUs: number;
}

export interface SelfTime {
  key: string;
  ms: number;
  share: number;
}

export interface ProfileSummary {
  phase: string;
  /** sampled time in the window */
  totalMs: number;
  /** sampled time the thread was not idle */
  busyMs: number;
  /** shares are of the busy time */
  functions: SelfTime[];
  files: SelfTime[];
}

export function summarizeProfile(file: string, phases: readonly PhaseWindow[], top: number): ProfileSummary[] {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const frameOf = new Map<number, ProfileNode['callFrame']>();
  for (const node of profile.nodes) frameOf.set(node.id, node.callFrame);

  const windows: PhaseWindow[] = [{ name: 'whole run', startUs: -Infinity, endUs: Infinity }, ...phases];
  const byFunction = windows.map(() => new Map<string, number>());
  const byFile = windows.map(() => new Map<string, number>());
  const totals = new Float64Array(windows.length);
  const idle = new Float64Array(windows.length);

  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    // a sample stands for the interval up to the next one
    const us = profile.timeDeltas[i + 1] ?? 0;
    const frame = frameOf.get(profile.samples[i]!);
    if (!frame) continue;
    const fnKey = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}${frame.url ? `:${frame.lineNumber + 1}` : ''}`.trim();
    const fileKey = frame.url ? shortUrl(frame.url) : frame.functionName;
    const isIdle = frame.functionName === '(idle)';
    for (let w = 0; w < windows.length; w++) {
      if (t < windows[w]!.startUs || t >= windows[w]!.endUs) continue;
      totals[w]! += us;
      if (isIdle) {
        idle[w]! += us;
        continue;
      }
      byFunction[w]!.set(fnKey, (byFunction[w]!.get(fnKey) ?? 0) + us);
      byFile[w]!.set(fileKey, (byFile[w]!.get(fileKey) ?? 0) + us);
    }
  }

  const ranked = (m: Map<string, number>, total: number): SelfTime[] =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([key, us]) => ({ key, ms: us / 1000, share: total > 0 ? us / total : 0 }));
  return windows.map((w, i) => {
    const busy = totals[i]! - idle[i]!;
    return {
      phase: w.name,
      totalMs: totals[i]! / 1000,
      busyMs: busy / 1000,
      functions: ranked(byFunction[i]!, busy),
      files: ranked(byFile[i]!, busy),
    };
  });
}

function shortUrl(url: string): string {
  const dist = url.indexOf('/dist/');
  if (dist >= 0) return url.slice(dist + 6);
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) return url.slice(nm + 14);
  return url.replace(/^file:\/\//, '');
}

/** "main thread" or "worker thread <n>", from the file name node gives a profile */
export function profileThread(fileName: string): string {
  // CPU.<date>.<time>.<pid>.<thread id>.<sequence>.cpuprofile
  const m = /\.(\d+)\.\d+\.cpuprofile$/.exec(fileName);
  if (!m) return 'unknown thread';
  return m[1] === '0' ? 'main thread' : `worker thread ${m[1]}`;
}

/** the current time on the monotonic clock V8 profiles use, in microseconds */
export function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}
