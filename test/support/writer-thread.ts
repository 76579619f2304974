/**
 * Test support: stops a segment writer thread in the middle of its job, the way a thread that
 * dies looks to the pool (it exits without answering). Node announces every new thread on the
 * `process` 'worker' event; the thread is stopped once a partially written segment file
 * (`*.seg.tmp`) shows up in the directory it writes to.
 */
import fs from 'node:fs';
import type { Worker } from 'node:worker_threads';

export interface ThreadStop {
  /** resolves once the thread was stopped, with the partial file it was writing */
  stopped: Promise<string>;
}

export function stopNextThreadWhileWriting(dir: string, timeoutMs = 30_000): ThreadStop {
  const stopped = new Promise<string>((resolve, reject) => {
    process.once('worker', (worker: Worker) => {
      const deadline = Date.now() + timeoutMs;
      const poll = () => {
        const partial = fs.existsSync(dir) ? fs.readdirSync(dir).find((f) => f.endsWith('.seg.tmp')) : undefined;
        if (partial) {
          void worker.terminate().then(() => resolve(partial), reject);
          return;
        }
        if (Date.now() > deadline) reject(new Error(`no partial segment file appeared in ${dir}`));
        else setTimeout(poll, 1);
      };
      poll();
    });
  });
  return { stopped };
}
