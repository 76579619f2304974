/**
 * A segment writer thread: takes one job at a time from the pool, writes its segment file and
 * answers with the file's description or the error. It holds nothing between jobs.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { nameThisThread, toThreadError } from '../../common/index.js';
import { runJob } from './run-job.js';
import { THREAD_NAME, type JobReply, type JobRequest } from './jobs.js';

/**
 * Nothing else runs on this thread's event loop (the pool sends the next job only after the
 * answer), so the writer need not pause for it: one turn a second is plenty.
 */
const SLICE_MS = 1000;

nameThisThread((workerData as { threadName?: string } | null)?.threadName ?? THREAD_NAME);

parentPort!.on('message', (request: JobRequest) => {
  void (async () => {
    let reply: JobReply;
    try {
      reply = { jobId: request.jobId, ok: true, info: await runJob(request.job, { sliceMs: SLICE_MS }) };
    } catch (err) {
      reply = { jobId: request.jobId, ok: false, error: toThreadError(err) };
    }
    parentPort!.postMessage(reply);
  })();
});
