/**
 * What the benchmark needs around the service: starting and stopping it as a child process,
 * a keep-alive HTTP client, resident-memory sampling and data-directory sizes.
 */
export { HttpClient, jsonBody, type HttpRequest, type HttpResponse } from './http-client.js';
export { startServer, serverEntry, serverLogErrors, tail, type ServerHandle, type ServerOptions, type ServerExit } from './server-process.js';
export { MemorySampler, type MemorySample } from './memory-sampler.js';
export { measureDataDir, type DiskUsage } from './disk-usage.js';
export { waitSettled, type SettleOptions, type SettleResult } from './settle.js';
export { median, percentile } from './stats.js';
export { CpuMeter, processCpuSeconds, statCpuSeconds, ownCpuSeconds, machineBusySeconds, type PhaseCpu } from './cpu-time.js';
export { ThreadCpuMeter, type ThreadCpu, type PhaseThreadCpu } from './thread-cpu.js';
export { repoRoot } from './repo-root.js';
export { waitReady } from './ready.js';
export { integer } from './cli-args.js';
