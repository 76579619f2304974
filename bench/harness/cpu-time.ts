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
  return statCpuSeconds(`/proc/${pid}/stat`);
}

/** user + system CPU seconds from a `stat` file of /proc (a process's, or one thread's under task/) */
export function statCpuSeconds(statFile: string): number | undefined {
  let text: string;
  try {
    text = fs.readFileSync(statFile, 'utf8');
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

/** CPU seconds all processes of the machine have used (busy time summed over CPUs) */
export function machineBusySeconds(): number | undefined {
  let text: string;
  try {
    text = fs.readFileSync('/proc/stat', 'utf8');
  } catch {
    return undefined;
  }
  // cpu  user nice system idle iowait irq softirq steal ...
  const fields = text.slice(0, text.indexOf('\n')).trim().split(/\s+/).slice(1).map(Number);
  if (fields.length < 8 || fields.some((f) => !Number.isFinite(f))) return undefined;
  const [user, nice, system, , , irq, softirq] = fields as [number, number, number, number, number, number, number];
  return (user + nice + system + irq + softirq) / clockTicks();
}

/** CPU seconds of this process */
export function ownCpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** Measures the CPU two processes use over a phase. */
export class CpuMeter {
  private serverStart: number | undefined;
  private machineStart: number | undefined;
  private clientStart = 0;
  private wallStart = 0;

  constructor(private readonly pid: number) {}

  begin(): void {
    this.serverStart = processCpuSeconds(this.pid);
    this.machineStart = machineBusySeconds();
    this.clientStart = ownCpuSeconds();
    this.wallStart = performance.now();
  }

  /** CPU seconds and average busy cores of the service and of the benchmark client */
  end(): PhaseCpu {
    const wallSec = (performance.now() - this.wallStart) / 1000;
    const serverEnd = processCpuSeconds(this.pid);
    const server = serverEnd !== undefined && this.serverStart !== undefined ? serverEnd - this.serverStart : null;
    const client = ownCpuSeconds() - this.clientStart;
    const machineEnd = machineBusySeconds();
    const machine = machineEnd !== undefined && this.machineStart !== undefined ? machineEnd - this.machineStart : null;
    const others = machine === null || server === null ? null : Math.max(0, machine - server - client);
    return {
      wallSeconds: wallSec,
      serverCpuSeconds: server,
      serverCores: server === null ? null : server / wallSec,
      clientCpuSeconds: client,
      clientCores: client / wallSec,
      otherProcessesCores: others === null ? null : others / wallSec,
    };
  }
}

export interface PhaseCpu {
  wallSeconds: number;
  serverCpuSeconds: number | null;
  serverCores: number | null;
  clientCpuSeconds: number;
  clientCores: number;
  /** what every other process of the machine used meanwhile: competition for the CPU */
  otherProcessesCores: number | null;
}
