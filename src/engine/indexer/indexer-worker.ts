/**
 * An indexing thread: builds the memtables the main thread sends documents for, in shared
 * memory. Between two documents it looks at the control array: when the main thread wants to
 * read, it publishes the arrays of the memtables it wrote since the last time and waits until
 * the main thread is done reading (see indexer.ts).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import { nameThisThread, toThreadError } from '../../common/index.js';
import { Memtable, shareMemtableMemory, sharedBytesAllocated, type ScannedValues } from '../memtable/index.js';
import { ANSWERED, HOLD, INDEXER_THREAD_NAME, REQUEST, SIGNAL, type AddJob, type IndexerReply, type IndexerRequest, type IndexerWorkerData, type MemtableFigures, type Publication } from './messages.js';

nameThisThread(INDEXER_THREAD_NAME);
shareMemtableMemory();

/**
 * Shared memory allocated between two collections. V8 counts none of it against this thread
 * (memory.ts), so the arrays a memtable outgrew, and whole memtables once flushed, would wait
 * for a collection that the thread's small heap seldom needs: it collects every so many bytes.
 */
const COLLECT_EVERY_BYTES = 64 * 1024 * 1024;
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
let collectedAt = 0;

function collectIfDue(): void {
  const allocated = sharedBytesAllocated();
  if (allocated - collectedAt < COLLECT_EVERY_BYTES) return;
  collectedAt = allocated;
  collect();
}

const { control, readPort } = workerData as IndexerWorkerData;
const memtables = new Map<string, Memtable>();
/** memtables written since the last publication */
const written = new Set<Memtable>();
let answered = Atomics.load(control, ANSWERED);

function figuresOf(m: Memtable): MemtableFigures {
  return { approxBytes: m.approxBytes };
}

/** The main thread holds the memtables to read them: answer its requests, and wait until it lets go. */
function pauseForReads(): void {
  for (;;) {
    const signal = Atomics.load(control, SIGNAL);
    const request = Atomics.load(control, REQUEST);
    if (request !== answered) {
      const publication: Publication = { memtables: [...written].map((m) => ({ snapshot: m.shared(), figures: figuresOf(m) })) };
      written.clear();
      readPort.postMessage(publication);
      answered = request;
      Atomics.store(control, ANSWERED, request);
      Atomics.notify(control, ANSWERED);
    }
    if (Atomics.load(control, HOLD) === 0) return;
    // until the main thread lets go, or asks again before this thread saw it let go
    Atomics.wait(control, SIGNAL, signal);
  }
}

/** Indexes the job's documents; `transfer` gets the buffers of the counts answered. */
function add(job: AddJob, transfer: ArrayBuffer[]): IndexerReply {
  let memtable = memtables.get(job.memtableId);
  if (memtable === undefined) {
    memtable = new Memtable(job.memtableId);
    memtables.set(job.memtableId, memtable);
  }
  written.add(memtable);
  const n = job.ids.length;
  const values: ScannedValues = { bytes: job.record, slots: job.slots, slot: job.slot, start: job.start, end: job.end, num: job.num };
  const general = new Map(job.general);
  const fieldCounts = new Uint32Array(n);
  const tokenCounts = new Uint32Array(n);
  let from = 0;
  for (let k = 0; k < n; k++) {
    if (Atomics.load(control, HOLD) !== 0) {
      pauseForReads();
      written.add(memtable);
    }
    const to = job.valueEnd[k]!;
    const doc = general.get(k);
    if (doc !== undefined) {
      memtable.add(doc);
      fieldCounts[k] = doc.fields.length;
    } else {
      const at = job.sourceAt[k]!;
      memtable.addScanned(job.ids[k]!, job.ts[k]!, job.lids[k]!, job.record, at, at + job.sourceLength[k]!, values, from, to);
      fieldCounts[k] = to - from;
    }
    tokenCounts[k] = memtable.lastTokenCount;
    from = to;
  }
  transfer.push(fieldCounts.buffer, tokenCounts.buffer);
  return { kind: 'added', requestId: job.requestId, figures: figuresOf(memtable), fieldCounts, tokenCounts };
}

parentPort!.on('message', (request: IndexerRequest) => {
  if (Atomics.load(control, HOLD) !== 0) pauseForReads();
  switch (request.kind) {
    case 'sync':
      return;
    case 'add': {
      let reply: IndexerReply;
      const counts: ArrayBuffer[] = [];
      try {
        reply = add(request, counts);
      } catch (err) {
        reply = { kind: 'failed', requestId: request.requestId, error: toThreadError(err) };
      }
      parentPort!.postMessage(reply, reply.kind === 'added' ? counts : []);
      collectIfDue();
      return;
    }
    case 'freeze': {
      const memtable = memtables.get(request.memtableId);
      memtables.delete(request.memtableId);
      if (memtable !== undefined) written.delete(memtable);
      const reply: IndexerReply = { kind: 'frozen', requestId: request.requestId, snapshot: memtable?.shared() ?? null };
      parentPort!.postMessage(reply);
      return;
    }
  }
});
