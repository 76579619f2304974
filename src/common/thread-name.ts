/**
 * Names the calling thread for the operating system, so that per-thread CPU figures (`top -H`,
 * `/proc/<pid>/task/<tid>/comm`, the benchmark) can tell the service's threads apart. Node 20
 * leaves every thread of the process named after the process (`node`) and offers no call for it;
 * on Linux a thread may rename itself by writing `/proc/thread-self/comm`. Best effort: elsewhere,
 * or when /proc is not mounted, nothing happens. The kernel keeps at most 15 bytes of the name.
 */
import fs from 'node:fs';

export function nameThisThread(name: string): void {
  if (process.platform !== 'linux') return;
  try {
    // a synchronous write runs on the calling thread itself, so thread-self is this thread
    fs.writeFileSync('/proc/thread-self/comm', name.slice(0, 15));
  } catch {
    // no /proc, or a kernel older than 3.17: the thread keeps its name
  }
}
