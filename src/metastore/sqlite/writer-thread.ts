/**
 * The catalog's writer thread: holds the connection that writes (and so the fsyncs of
 * `synchronous = FULL`) and runs the statements the main thread sends, one at a time, in order.
 * A statement's answer is posted only once SQLite has returned from it, so a COMMIT's answer
 * means the commit is durable.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { nameThisThread, toThreadError } from '../../common/index.js';
import { openSqliteConnection } from './connection.js';
import type { StatementResult, WriterReply, WriterRequest, WriterThreadData } from './messages.js';

const { path, threadName } = workerData as WriterThreadData;
nameThisThread(threadName);

// an error opening the connection is an uncaught error: the main thread sees the thread exit
const database = openSqliteConnection(path, 'writer');
const port = parentPort!;
port.postMessage({ id: 0, ok: true, ready: true } satisfies WriterReply);

port.on('message', (request: WriterRequest) => {
  if (request.kind === 'close') {
    database.close();
    port.postMessage({ id: request.id, ok: true, result: { rows: [] } } satisfies WriterReply);
    port.close();
    return;
  }
  let reply: WriterReply;
  try {
    if (request.kind === 'rollback') {
      if (database.inTransaction) database.exec('rollback');
      reply = { id: request.id, ok: true, result: { rows: [] } };
    } else reply = { id: request.id, ok: true, result: execute(request.sql, request.parameters) };
  } catch (err) {
    reply = { id: request.id, ok: false, error: toThreadError(err) };
  }
  port.postMessage(reply);
});

function execute(sql: string, parameters: readonly unknown[]): StatementResult {
  const statement = database.prepare(sql);
  // structured cloning turns a Buffer into a Uint8Array; SQLite binds blobs from Buffers only
  const values = parameters.map((p) => (p instanceof Uint8Array && !Buffer.isBuffer(p) ? Buffer.from(p.buffer, p.byteOffset, p.byteLength) : p));
  if (statement.reader) return { rows: statement.all(values) };
  const { changes, lastInsertRowid } = statement.run(values);
  return { rows: [], changes, lastInsertRowid };
}
