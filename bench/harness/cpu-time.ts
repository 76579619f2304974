/**
 * CPU time a process has used (user + system, all threads), from /proc/<pid>/stat, so that a
 * phase can say how many cores the service kept busy. Undefined where /proc is missing.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

export function processCpuSeconds(pid: number): number | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // the command name in parentheses may hold spaces: count fields after its closing parenthesis
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) return undefined;
  return (utime + stime) / clockTicks();
}

/** CPU seconds of this process */
export function ownCpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** Measures the CPU two processes use over a phase. */
export class CpuMeter {
  private serverStart: number | undefined;
  private clientStart = 0;
  private wallStart = 0;

  constructor(private readonly pid: number) {}

  begin(): void {
    this.serverStart = processCpuSeconds(this.pid);
    this.clientStart = ownCpuSeconds();
    this.wallStart = performance.now();
  }

  /** CPU seconds and average busy cores of the service and of the benchmark client */
  end(): PhaseCpu {
    const wallSec = (performance.now() - this.wallStart) / 1000;
    const serverEnd = processCpuSeconds(this.pid);
    const server = serverEnd !== undefined && this.serverStart !== undefined ? serverEnd - this.serverStart : null;
    const client = ownCpuSeconds() - this.clientStart;
    return {
      wallSeconds: wallSec,
      serverCpuSeconds: server,
      serverCores: server === null ? null : server / wallSec,
      clientCpuSeconds: client,
      clientCores: client / wallSec,
    };
  }
}

export interface PhaseCpu {
  wallSeconds: number;
  serverCpuSeconds: number | null;
  serverCores: number | null;
  clientCpuSeconds: number;
  clientCores: number;
}
