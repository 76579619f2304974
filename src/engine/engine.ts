/**
 * The engine of one node: the shards of its indexes, the write-ahead log they share, and the
 * flush schedule. A write is acknowledged only after its WAL record is fsynced; after an unclean
 * stop, recover() replays the WAL into memtables, skipping what committed segments already hold.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { isDeepStrictEqual } from 'node:util';
import {
  BadRequestError,
  ConflictError,
  IdGenerator,
  NotFoundError,
  SvcError,
  validateIndexName,
  IndexNotFoundError,
  IndexNotHereError,
  ResourceExistsError,
  idTimestampMs,
  ID_EPOCH_MS,
  clientKey,
  isClientKey,
  parseGeneratedId,
} from '../common/index.js';
import { buildDocument, identityMembers, identityOfBytes, parseDocumentText, splitIdentity, withIdentity } from './document/index.js';
import { walDeletesRecord } from './ingest/wal-record.js';
import { fromStoredSource, type StoredDocument } from './search/index.js';
import { Wal, type WalRecord } from './wal/index.js';
import { openSegment } from './segment/index.js';
import { ShardWriteBatch, WalRecordReader, type ScannedDocument } from './ingest/index.js';
import { IndexShard, type KeyEntry, type OpenSegment } from './shard/index-shard.js';
import { Compactor, idleMerge, type CompactionEvents, type MergePolicyOptions } from './compaction/index.js';
import { AliasTable, type AliasLink, type EngineCatalog, type IndexRecord, type SegmentRecord, type SegmentStore } from './catalog/index.js';
import type { SearchTarget } from './search/types.js';
import { IndexMapping, type MappingEntry } from './mapping/index.js';
import { FLUSH_THREAD_NAME, SegmentWriterPool } from './segment-writer-pool/index.js';
import { Indexer } from './indexer/index.js';

export interface EngineOptions {
  dataDir: string;
  catalog: EngineCatalog;
  /** the object store holding segment files durably */
  segmentStore: SegmentStore;
  logger: Logger;
  memtableMaxBytes: number;
  memtableMaxAgeMs: number;
  /**
   * document bytes of the write-ahead log not yet in committed segments (what a replay after a
   * crash redoes): from 3/4 of it on, the largest memtable is flushed ahead of its size
   */
  walMaxUnflushedBytes: number;
  /** an index unused this long has its resources released (flushed, files closed) */
  idleIndexMs: number;
  /** compaction reports, for metrics */
  compactionEvents?: CompactionEvents;
  /** merge policy (tests use small factors) */
  mergePolicy?: MergePolicyOptions;
  /** observe each accepted document: its field count and `_line` token count (metrics) */
  onDocumentIndexed?: (fields: number, tokens: number) => void;
  /** where the write-ahead log lives; `<dataDir>/wal` by default */
  walDir?: string;
  /**
   * The indexes of the catalog this engine holds. A cache node of a cluster holds those placed
   * on it: the others are opened only when they are placed here (openIndexes). Undefined: all.
   */
  holds?: (index: string) => boolean;
  /**
   * Write-ahead logs of other cache nodes (on a volume every cache node reads) that may hold
   * acknowledged, unflushed writes of an index this engine opens after its owner died.
   */
  foreignWalDirs?: () => Promise<readonly string[]>;
  /**
   * Whether this engine merges its indexes' segments itself (checked before each merge it would
   * start; an explicit `_forcemerge` always runs here). False on a cache node of a cluster whose
   * storage role merges instead: it takes their merges in with syncSegments. Undefined: always.
   */
  mergesHere?: () => boolean;
  /** threads that build memtables off the main thread (0: memtables are built on it) */
  indexingThreads?: number;
}

/** What a write op does to its document (Elasticsearch's bulk actions). */
export type WriteAction = 'index' | 'create' | 'update' | 'delete';

/** An update: a partial document merged into the current one, or a document for a missing one. */
export interface UpdateRequest {
  doc?: Record<string, unknown>;
  upsert?: Record<string, unknown>;
  /** a missing document is created from `doc` */
  docAsUpsert?: boolean;
}

/**
 * One op of a write. `index` and `create` carry a document whose JSON text is bytes
 * [start, end) of the request body; `update` and `delete` name a document by `_id`.
 */
export interface WriteOp {
  index: string;
  start: number;
  end: number;
  /** `index` when absent */
  action?: WriteAction;
  /** the client-supplied `_id`; a document without one gets a generated id */
  id?: string;
  update?: UpdateRequest;
}

/** What became of a document, as Elasticsearch words it. */
export type WriteResult = 'created' | 'updated' | 'deleted' | 'not_found' | 'noop';

/** A document read by `_id`. */
export interface FoundDocument extends StoredDocument {
  index: string;
  /** `_seq_no` + 1 */
  lid: number;
}

/** What a new index starts with besides its name. */
export interface NewIndexInit {
  settings?: Record<string, unknown>;
  /** a persisted mapping (IndexMapping.toJSON()) */
  mappings?: unknown;
  /** explicit field types (with the parent field of a multi-field), declared in this order before any document arrives */
  fields?: ReadonlyArray<MappingEntry>;
  /** fields (from templates) left to dynamic typing when they cannot be declared; others are an error */
  optionalFields?: ReadonlySet<string>;
}

/** Index templates as the engine sees them: what an index created on demand by a write starts with. */
export interface IndexDefaults {
  initFor(name: string): Promise<NewIndexInit>;
  /** runs once an index created on demand exists (template aliases); reports its own failures */
  created?(name: string): Promise<void>;
}

export type WriteOutcome =
  /** `lid`: the document's `_lid` (`_seq_no` + 1); for a delete or noop, the last lid handed out */
  | { ok: true; index: string; id: string; lid: number; version: number; result: WriteResult }
  /** `id`: the document's id, when it got one before failing */
  | { ok: false; index: string; id?: string; error: SvcError };

/** The per-shard state of one write: its batch, the deletes it logs, and how to undo its key changes. */
interface ShardWrite {
  shard: IndexShard;
  batch: ShardWriteBatch;
  deletedLids: number[];
  deletedIds: bigint[];
  /** keys changed by the write, in order: the key, what it held before, what the write set */
  undo: Array<[bigint, KeyEntry | undefined, KeyEntry | undefined]>;
  /** lids of its documents with client-supplied ids, readable by updates until they are added */
  inFlight: number[];
  /** the id the document being added got, so that a failure to parse it can name it */
  attemptedId: bigint | undefined;
}

export class Engine {
  private readonly shards = new Map<string, IndexShard>();
  private readonly creating = new Map<string, Promise<IndexShard>>();
  private readonly ids = new IdGenerator();
  private flushTimer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;

  private readonly compactor: Compactor;
  /** flushes write their segment files on a thread of their own, not behind a long merge */
  private readonly flushWriter: SegmentWriterPool;
  /** the threads memtables are built on (none: on the main thread) */
  private readonly indexer: Indexer;

  private constructor(
    private readonly opts: EngineOptions,
    private readonly wal: Wal,
  ) {
    this.compactor = new Compactor(opts.dataDir, opts.catalog, opts.segmentStore, opts.logger, opts.compactionEvents, opts.mergePolicy);
    this.flushWriter = new SegmentWriterPool({ logger: opts.logger, threadName: FLUSH_THREAD_NAME });
    this.indexer = new Indexer(opts.indexingThreads ?? 0, opts.logger);
  }

  /** Opens the engine and replays the write-ahead log before resolving. */
  static async open(opts: EngineOptions): Promise<Engine> {
    const engine = await Engine.load(opts);
    await engine.recover();
    return engine;
  }

  /**
   * Opens the catalog's indexes and segment files and reads the write-ahead log's document
   * headers (ids, lids: a quick pass that also finds corruption), so that writes and searches
   * can be taken at once; `recover()` then indexes the log's documents again in the background.
   */
  static async load(opts: EngineOptions): Promise<Engine> {
    await fs.promises.mkdir(opts.dataDir, { recursive: true });
    const wal = await Wal.open(opts.walDir ?? path.join(opts.dataDir, 'wal'), { logger: opts.logger });
    const engine = new Engine(opts, wal);
    const started = performance.now();
    await engine.loadShards();
    const shardsLoaded = performance.now();
    await engine.readWalIdentities();
    opts.logger.info(
      { indexes: engine.shards.size, openMs: Math.round(shardsLoaded - started), walReadMs: Math.round(performance.now() - shardsLoaded) },
      'catalog and write-ahead log read',
    );
    return engine;
  }

  private recovery: Promise<void> | undefined;
  /** found by the first pass over the log: records in it, and whether any must be indexed again */
  private walRecordsAtOpen = 0;
  private replayNeeded = false;
  private recoveredFlag = false;
  private recoveryError: Error | undefined;

  /** Why the replay failed (a corrupt log), if it did. */
  get recoveryFailure(): Error | undefined {
    return this.recoveryError;
  }

  /** True once the write-ahead log is replayed: every acknowledged document is searchable. */
  get recovered(): boolean {
    return this.recoveredFlag;
  }

  /**
   * Replays the write-ahead log into memtables (once; later calls share it), then starts the
   * flush and idle-release schedules. Rejects with the replay's error (a corrupt log).
   */
  recover(): Promise<void> {
    this.recovery ??= (async () => {
      try {
        // nothing to index again (a clean stop): ready at once, without a turn of the event loop
        if (this.replayNeeded) await this.replayWal();
      } catch (err) {
        this.recoveryError = err instanceof Error ? err : new Error(String(err));
        throw err;
      }
      for (const shard of this.shards.values()) shard.endRecovery();
      this.recoveredFlag = true;
      // flushes committed during the replay could not let their log files go until now
      if (this.walRecordsAtOpen > 0) void this.truncateWal().catch((err: unknown) => this.opts.logger.warn({ err }, 'write-ahead log truncation after the replay failed'));
      this.flushTimer = setInterval(() => this.flushAged(), Math.min(1000, this.opts.memtableMaxAgeMs)).unref();
      this.idleTimer = setInterval(() => this.releaseIdle(), Math.max(250, Math.min(30_000, this.opts.idleIndexMs / 4))).unref();
      // a replay does not flush as it goes: memtables it filled past their size go now
      for (const shard of this.shards.values()) this.flushIfFull(shard);
      this.flushIfLogFull();
    })();
    return this.recovery;
  }

  private async loadShards(): Promise<void> {
    for (const record of await this.opts.catalog.listIndexes()) {
      if (this.opts.holds !== undefined && !this.opts.holds(record.name)) continue;
      this.shards.set(record.name, await this.openShard(record));
    }
  }

  /** An index of the catalog with its committed segments, fetched from the object store when not on disk. */
  private async openShard(record: IndexRecord): Promise<IndexShard> {
    const segments: OpenSegment[] = [];
    for (const seg of await this.opts.catalog.listSegments(record.name)) {
      const localPath = path.join(this.opts.dataDir, seg.path);
      // a cache node that lost its local copy (or a new one) fetches the file from the object store
      if (!fs.existsSync(localPath)) await this.opts.segmentStore.getToFile(seg.path, localPath);
      const reader = openSegment(localPath, seg.id);
      segments.push({ record: seg, reader });
      this.observeIds(reader.ids());
    }
    this.ids.observe(firstIdAt(record.createdAtMs));
    return this.adopt(new IndexShard(record, segments, this.opts.dataDir, this.opts.catalog, this.opts.segmentStore, this.flushWriter, this.indexer));
  }

  private readonly opening = new Map<string, Promise<void>>();

  /**
   * Opens indexes of the catalog this engine does not hold yet (placed on this cache node after
   * it started, or moved here from a cache node that died): committed segments from the object
   * store, then the writes of other cache nodes' logs (foreignWalDirs) beyond them, logged again
   * in this node's own log before they are taken. Names not in the catalog are left out.
   */
  async openIndexes(names: readonly string[]): Promise<void> {
    const missing = names.filter((n) => !this.shards.has(n) && (this.opts.holds === undefined || this.opts.holds(n)));
    if (missing.length === 0) return;
    const records = new Map((await this.opts.catalog.listIndexes()).map((r) => [r.name, r]));
    await Promise.all(
      missing.map((name) => {
        const record = records.get(name);
        if (record === undefined || this.shards.has(name)) return undefined;
        let opening = this.opening.get(name);
        if (opening === undefined) {
          opening = this.openMoved(record).finally(() => this.opening.delete(name));
          this.opening.set(name, opening);
        }
        return opening;
      }),
    );
  }

  private async openMoved(record: IndexRecord): Promise<void> {
    const started = performance.now();
    const shard = await this.openShard(record);
    const payloads = await this.foreignRecords(shard);
    const seq = payloads.length > 0 ? (await this.wal.append(payloads)).seq : 0;
    const records = payloads.map((payload) => ({ seq, payload }));
    await this.readWalIdentities(records, shard);
    // the lids it must go on from are known: writes may come now, the replay runs beside them
    this.shards.set(record.name, shard);
    this.handedOver.delete(record.name);
    try {
      if (shard.isRecovering) await this.replayWal(records, shard);
    } finally {
      shard.endRecovery();
    }
    if (this.recoveredFlag) this.flushIfFull(shard);
    this.opts.logger.info({ index: record.name, records: payloads.length, ms: Math.round(performance.now() - started) }, 'index opened on this node');
  }

  /**
   * The records of the index in other cache nodes' logs that hold more than its committed
   * segments: deletes, and documents past the segments' last lid. A record copied from one log
   * into another (an index that moved twice) is taken once, by the lid of its first document.
   */
  private async foreignRecords(shard: IndexShard): Promise<Buffer[]> {
    const dirs = (await this.opts.foreignWalDirs?.()) ?? [];
    const durable = shard.durableMaxLid();
    const firstLids = new Set<number>();
    const out: Array<{ first: number; payload: Buffer }> = [];
    for (const dir of dirs) {
      if (!fs.existsSync(dir)) continue;
      const wal = await Wal.open(dir, { logger: this.opts.logger });
      try {
        for await (const { seq, payload } of wal.replay()) {
          const record = new WalRecordReader(payload, `${dir} seq ${seq}`);
          if (record.index !== shard.name || !replaysInto(shard, record)) continue;
          if (record.deletes) {
            out.push({ first: 0, payload: Buffer.from(payload) });
            continue;
          }
          let first = 0;
          let last = 0;
          while (record.next()) {
            if (first === 0) first = record.lid;
            last = record.lid;
          }
          if (last <= durable || firstLids.has(first)) continue;
          firstLids.add(first);
          out.push({ first, payload: Buffer.from(payload) });
        }
      } finally {
        await wal.close();
      }
    }
    // documents in lid order, each delete after the documents logged before it in its own log
    return out.map((r) => r.payload);
  }

  private observeIds(ids: BigUint64Array): void {
    let max = 0n;
    // client-supplied ids are keys, not times: generated ids need not follow them
    for (let i = 0; i < ids.length; i++) if (ids[i]! > max && !isClientKey(ids[i]!)) max = ids[i]!;
    if (max > 0n) this.ids.observe(max);
  }

  /**
   * The first pass over the write-ahead log: new ids and lids must follow every one it holds,
   * and each index with documents to replay gets a memtable for them (see IndexShard).
   */
  private async readWalIdentities(records: AsyncIterable<WalRecord> | Iterable<WalRecord> = this.wal.replay(), only?: IndexShard): Promise<void> {
    for await (const { seq, payload } of records) {
      if (only === undefined) this.walRecordsAtOpen++;
      const record = new WalRecordReader(payload, `wal seq ${seq}`);
      const shard = only === undefined ? this.shards.get(record.index) : record.index === only.name ? only : undefined;
      const durable = shard ? shard.durableMaxLid() : 0;
      const belongs = shard !== undefined && replaysInto(shard, record);
      while (record.next()) {
        if (!isClientKey(record.id)) this.ids.observe(record.id);
        if (!belongs) continue;
        if (record.deletes) {
          shard.replayDelete(record.id, record.lid, seq);
          continue;
        }
        shard.observeLid(record.lid);
        if (isClientKey(record.id)) {
          // the key's version is in the logged source: writes taken during the replay count on from it
          const identity = identityOfBytes(payload, record.sourceStart, record.sourceEnd);
          shard.noteKey(record.id, record.lid, identity?.version ?? 0);
        }
        if (record.lid > durable) {
          shard.beginRecovery();
          if (only === undefined) this.replayNeeded = true;
        }
      }
    }
  }

  /**
   * Indexes again what the write-ahead log holds beyond the committed segments, with the write's
   * own fast path over the stored sources. Writes and searches go on meanwhile: the event loop
   * gets a turn after each record.
   */
  private async replayWal(records: AsyncIterable<WalRecord> | Iterable<WalRecord> = this.wal.replay(), only?: IndexShard): Promise<void> {
    const started = performance.now();
    let replayed = 0;
    let skipped = 0;
    const scanned: ScannedDocument = { ts: NaN, keepEnd: 0 };
    for await (const { seq, payload } of records) {
      const record = new WalRecordReader(payload, `wal seq ${seq}`);
      const shard = only === undefined ? this.shards.get(record.index) : record.index === only.name ? only : undefined;
      if (record.deletes) continue;
      const batch = shard ? new ShardWriteBatch(payload, shard.fieldSlots.list, record.count) : undefined;
      const durable = shard ? shard.durableMaxLid() : 0;
      const belongs = shard !== undefined && replaysInto(shard, record);
      while (record.next()) {
        if (!shard || !batch || !belongs || record.lid <= durable) {
          skipped++;
          continue;
        }
        const { id, ts, lid, sourceStart, sourceEnd } = record;
        if (shard.fieldSlots.ready && shard.storedSourceScanner.scan(payload, sourceStart, sourceEnd, batch.values, scanned)) {
          batch.addStored(id, ts, lid, sourceStart, sourceEnd);
        } else {
          // the identity members of a client-supplied `_id` are metadata the build drops: kept as they were
          const split = isClientKey(id) ? splitIdentity(record.source()) : null;
          const doc = buildDocument(JSON.parse(split?.base ?? record.source()), shard.mapping, { id, lid }, ts);
          if (split) doc.source = withIdentity(doc.source, split.identity.id, split.identity.version);
          batch.addGeneral(doc);
        }
      }
      if (shard && batch && batch.size > 0) {
        batch.walRecord(shard.name, shard.uuid);
        shard.addRecovered(batch, seq);
        replayed += batch.size;
      }
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    if (replayed > 0 || skipped > 0) {
      this.opts.logger.info({ replayed, skipped, ms: Math.round(performance.now() - started) }, 'write-ahead log replayed');
    }
  }

  /** kept in step with the catalog by whoever changes aliases */
  private readonly aliases = new AliasTable();

  aliasMap(): ReadonlyMap<string, readonly string[]> {
    return this.aliases.map();
  }

  /** Replaces the alias table with the catalog's links: the alias map and each alias' write index. */
  setAliases(links: readonly AliasLink[]): void {
    this.aliases.set(links);
  }

  /** The index a write addressed to `name` goes to: `name` itself, or the write index of the alias `name`. */
  writeIndexFor(name: string): string {
    return this.aliases.writeIndexFor(name, this.shards.has(name));
  }

  private indexDefaults: IndexDefaults | undefined;

  /** Index templates for indexes that writes create on demand. */
  setIndexDefaults(defaults: IndexDefaults | undefined): void {
    this.indexDefaults = defaults;
  }

  indexNames(): string[] {
    return [...this.shards.keys()].sort();
  }

  shard(name: string): IndexShard | undefined {
    return this.shards.get(name);
  }

  requireShard(name: string): IndexShard {
    const shard = this.shards.get(name);
    // a request that reached this node before its index was handed over is sent on by the caller
    if (!shard && this.handedOver.has(name)) throw new IndexNotHereError(`index [${name}] is held by another cache node`, name);
    if (!shard) throw new IndexNotFoundError(name);
    return shard;
  }

  /**
   * Creates the index when it does not exist yet (writes create indexes on demand). Without
   * `init`, a new index starts from the index defaults (templates).
   */
  ensureIndex(name: string, init?: NewIndexInit): Promise<IndexShard> {
    const existing = this.shards.get(name);
    if (existing) return Promise.resolve(existing);
    if (this.handedOver.has(name)) return Promise.reject(new IndexNotHereError(`index [${name}] is held by another cache node`, name));
    const inFlight = this.creating.get(name);
    if (inFlight) return inFlight;
    const created = (async () => {
      validateIndexName(name);
      // in a cluster, the index may exist without being held here yet
      if (this.opts.holds !== undefined) {
        await this.openIndexes([name]);
        const opened = this.shards.get(name);
        if (opened) return opened;
      }
      const onDemand = init === undefined;
      const plan = init ?? (await this.indexDefaults?.initFor(name)) ?? {};
      const record: IndexRecord = {
        name,
        uuid: randomUUID(),
        createdAtMs: Date.now(),
        // a template field that cannot be declared is left to dynamic typing; a request's is an error
        mappings: initialMappings(plan, onDemand),
        settings: plan.settings ?? {},
      };
      await this.opts.catalog.createIndex(record);
      // every id of this index is then newer than the index, which WAL replay relies on
      this.ids.observe(firstIdAt(record.createdAtMs));
      const shard = this.adopt(new IndexShard(record, [], this.opts.dataDir, this.opts.catalog, this.opts.segmentStore, this.flushWriter, this.indexer));
      this.shards.set(name, shard);
      if (onDemand) await this.indexDefaults?.created?.(name);
      return shard;
    })();
    this.creating.set(name, created);
    created.finally(() => this.creating.delete(name)).catch(() => undefined);
    return created;
  }

  /** Creates the index as asked (`PUT /{index}`); ResourceExistsError when it exists or is being created. */
  async createIndex(name: string, init: NewIndexInit): Promise<IndexShard> {
    if (this.opts.holds !== undefined) await this.openIndexes([name]);
    const existing = this.shards.get(name) ?? (await this.creating.get(name)?.catch(() => undefined));
    if (existing) {
      throw new ResourceExistsError(`index [${name}/${existing.uuid}] already exists`, 'resource_already_exists_exception', {
        index: name,
        index_uuid: existing.uuid,
      });
    }
    return this.ensureIndex(name, init);
  }

  /**
   * Writes documents whose JSON texts are byte ranges of `body`: each op either gets an `_id` or
   * its own error; good ops are durable (WAL fsynced) and searchable when the promise resolves.
   * Flat log documents take the scanner's fast path; the rest are parsed and built in full.
   */
  async write(body: Buffer, ops: readonly WriteOp[], receivedTs = Date.now()): Promise<WriteOutcome[]> {
    const outcomes: WriteOutcome[] = new Array(ops.length);
    const opsPerIndex = new Map<string, number>();
    for (const op of ops) opsPerIndex.set(op.index, (opsPerIndex.get(op.index) ?? 0) + 1);
    // an update reads the current document, which a replay may not have brought back yet
    if (!this.recoveredFlag && ops.some((op) => op.action === 'update')) await this.recover();
    const writes = new Map<string, ShardWrite>();
    for (const [name, count] of opsPerIndex) {
      try {
        const shard = await this.ensureIndex(name);
        writes.set(name, { shard, batch: new ShardWriteBatch(body, shard.fieldSlots.list, count), deletedLids: [], deletedIds: [], undo: [], inFlight: [], attemptedId: undefined });
      } catch (err) {
        if (!(err instanceof SvcError)) throw err;
        for (let i = 0; i < ops.length; i++) if (ops[i]!.index === name) outcomes[i] = { ok: false, index: name, id: ops[i]!.id, error: err };
      }
    }

    // an index being handed over takes no more writes; the ones taken before end first (handOver)
    for (const [name, write] of writes) {
      if (!write.shard.leaving) continue;
      writes.delete(name);
      const err = new IndexNotHereError(`index [${name}] is being handed over to another cache node`, name);
      for (let i = 0; i < ops.length; i++) if (ops[i]!.index === name) outcomes[i] = { ok: false, index: name, id: ops[i]!.id, error: err };
    }
    for (const { shard } of writes.values()) shard.writeBegan();
    try {
      return await this.writeTaken(body, ops, writes, outcomes, receivedTs);
    } finally {
      for (const { shard } of writes.values()) shard.writeEnded();
    }
  }

  /** The ops of a write whose indexes take it: identities, the log record, the memtables. */
  private async writeTaken(body: Buffer, ops: readonly WriteOp[], writes: Map<string, ShardWrite>, outcomes: WriteOutcome[], receivedTs: number): Promise<WriteOutcome[]> {
    // Give every document its identity in one synchronous pass, so lids follow WAL order and
    // each op sees the ops before it (a replace, a delete, an update of the same `_id`).
    const scanned: ScannedDocument = { ts: NaN, keepEnd: 0 };
    for (let i = 0; i < ops.length; i++) {
      if (outcomes[i]) continue;
      const op = ops[i]!;
      const write = writes.get(op.index)!;
      try {
        switch (op.action) {
          case 'delete':
            outcomes[i] = this.deleteOne(write, op.id!);
            break;
          case 'update':
            outcomes[i] = this.updateOne(write, body, op, receivedTs, scanned);
            break;
          default:
            outcomes[i] = this.indexOne(write, body, op, receivedTs, scanned);
        }
      } catch (err) {
        if (!(err instanceof SvcError)) throw err;
        outcomes[i] = { ok: false, index: op.index, id: op.id ?? write.attemptedId?.toString(), error: err };
      }
    }

    const entries = [...writes.values()].filter((e) => e.batch.size > 0 || e.deletedLids.length > 0);
    if (entries.length === 0) return outcomes;
    const records: Buffer[] = [];
    for (const e of entries) {
      if (e.batch.size > 0) records.push(e.batch.walRecord(e.shard.name, e.shard.uuid));
      if (e.deletedLids.length > 0) records.push(walDeletesRecord(e.shard.name, e.shard.uuid, e.deletedLids, e.deletedIds));
    }
    let seq: number;
    try {
      ({ seq } = await this.wal.append(records));
    } catch (err) {
      for (const e of entries) {
        undoKeys(e);
        for (const lid of e.inFlight) e.shard.inFlight.delete(lid);
      }
      throw err;
    }
    for (const e of entries) e.shard.applyDeletes(e.deletedLids, seq);
    // queued at once, in the log's order, for every shard of the write; added in slices
    try {
      await Promise.all(entries.filter((e) => e.batch.size > 0).map(({ shard, batch }) => shard.addBatch(batch, seq, this.opts.onDocumentIndexed)));
    } finally {
      for (const e of entries) for (const lid of e.inFlight) e.shard.inFlight.delete(lid);
    }
    for (const { shard } of entries) this.flushIfFull(shard);
    this.flushIfLogFull();
    return outcomes;
  }

  /** `index` and `create`: a new document, replacing the live one with its `_id` (`index`). */
  private indexOne(write: ShardWrite, body: Buffer, op: WriteOp, receivedTs: number, scanned: ScannedDocument, text?: string): WriteOutcome {
    const { shard, batch } = write;
    const key = op.id === undefined ? undefined : clientKey(op.id);
    const replaced = key === undefined ? undefined : shard.keyEntry(key);
    let version = 1;
    if (replaced !== undefined) {
      const current = shard.versionOf(replaced);
      if (op.action === 'create') throw versionConflict(shard, op.id!, current);
      version = current + 1;
    }
    const id = key ?? this.ids.next();
    write.attemptedId = id;
    const lid = shard.peekLid();
    if (text === undefined && shard.fieldSlots.ready && shard.scanner.scan(body, op.start, op.end, batch.values, scanned)) {
      const hasTs = !Number.isNaN(scanned.ts);
      const identity = key === undefined ? '' : identityMembers(op.id!, version);
      batch.addScanned(id, hasTs ? scanned.ts : receivedTs, lid, hasTs, op.start, scanned.keepEnd, identity);
    } else {
      const docText = text ?? body.toString('utf8', op.start, op.end);
      const doc = buildDocument(parseDocumentText(docText), shard.mapping, { id, lid }, receivedTs, docText);
      if (key !== undefined) doc.source = withIdentity(doc.source, op.id!, version);
      batch.addGeneral(doc);
    }
    shard.takeLid();
    if (key === undefined) return { ok: true, index: shard.name, id: id.toString(), lid, version, result: 'created' };
    const entry: KeyEntry = { lid, version };
    write.undo.push([key, shard.setKey(key, entry), entry]);
    shard.inFlight.set(lid, { batch, k: batch.size - 1 });
    write.inFlight.push(lid);
    if (replaced !== undefined) {
      write.deletedLids.push(replaced.lid);
      write.deletedIds.push(key);
    }
    return { ok: true, index: shard.name, id: op.id!, lid, version, result: replaced === undefined ? 'created' : 'updated' };
  }

  /** `delete`: by a client-supplied `_id`, or by a generated one. */
  private deleteOne(write: ShardWrite, idText: string): WriteOutcome {
    const { shard } = write;
    const key = clientKey(idText);
    const entry = shard.keyEntry(key);
    const lastLid = shard.peekLid() - 1;
    if (entry !== undefined) {
      const version = shard.versionOf(entry) + 1;
      write.undo.push([key, shard.setKey(key, undefined), undefined]);
      write.deletedLids.push(entry.lid);
      write.deletedIds.push(key);
      return { ok: true, index: shard.name, id: idText, lid: lastLid, version, result: 'deleted' };
    }
    const generated = parseGeneratedId(idText);
    const found = generated === undefined ? null : shard.findGenerated(generated);
    if (found !== null && !write.deletedLids.includes(found.lid)) {
      write.deletedLids.push(found.lid);
      write.deletedIds.push(generated!);
      return { ok: true, index: shard.name, id: idText, lid: lastLid, version: 2, result: 'deleted' };
    }
    return { ok: true, index: shard.name, id: idText, lid: lastLid, version: 1, result: 'not_found' };
  }

  /** `update`: `doc` merged into the live document, or the upsert document when there is none. */
  private updateOne(write: ShardWrite, body: Buffer, op: WriteOp, receivedTs: number, scanned: ScannedDocument): WriteOutcome {
    const { shard } = write;
    const idText = op.id!;
    const update = op.update ?? {};
    const entry = shard.keyEntry(clientKey(idText));
    if (entry === undefined) {
      const generated = parseGeneratedId(idText);
      if (generated !== undefined && shard.findGenerated(generated) !== null) {
        throw new BadRequestError(`[${idText}]: updates of documents with a generated _id are not supported; index the document again with its _id instead`);
      }
      const upsert = update.docAsUpsert === true ? update.doc : update.upsert;
      if (upsert === undefined) throw documentMissing(shard, idText);
      return this.indexOne(write, body, { ...op, action: 'index' }, receivedTs, scanned, JSON.stringify(upsert));
    }
    const stored = shard.sourceOfLid(entry.lid);
    if (stored === null) throw documentMissing(shard, idText);
    const current = JSON.parse(splitIdentity(stored)?.base ?? stored) as Record<string, unknown>;
    delete current._lid;
    const merged = mergeObjects(structuredClone(current), update.doc ?? {});
    if (isDeepStrictEqual(merged, current)) {
      return { ok: true, index: shard.name, id: idText, lid: entry.lid, version: shard.versionOf(entry), result: 'noop' };
    }
    return this.indexOne(write, body, { ...op, action: 'index' }, receivedTs, scanned, JSON.stringify(merged));
  }

  /**
   * The live document with this `_id` (client-supplied, else generated) in the index, or null.
   * Waits for the replay of the write-ahead log, which may bring it back.
   */
  async getDocument(index: string, idText: string): Promise<FoundDocument | null> {
    if (!this.recoveredFlag) await this.recover();
    const shard = this.requireShard(index);
    const key = clientKey(idText);
    const entry = shard.keyEntry(key);
    if (entry !== undefined) {
      const stored = shard.sourceOfLid(entry.lid);
      if (stored === null) return null;
      return { index, lid: entry.lid, ...fromStoredSource(key, stored) };
    }
    const generated = parseGeneratedId(idText);
    const found = generated === undefined ? null : shard.findGenerated(generated);
    if (found === null) return null;
    return { index, lid: found.lid, ...fromStoredSource(generated!, found.segment.source(found.doc)) };
  }

  private flushIfFull(shard: IndexShard): void {
    if (shard.memtableBytes >= this.opts.memtableMaxBytes) void this.flushShard(shard).catch(() => undefined);
  }

  /** a flush started by flushIfLogFull that has not finished */
  private logFlush: Promise<void> | undefined;

  /**
   * Bounds the replay after a crash: past 3/4 of the cap, the memtable holding most goes early,
   * one at a time (so that a burst of writes does not cut many small segments).
   */
  private flushIfLogFull(): void {
    if (this.logFlush || this.pendingStorageBytes() < this.opts.walMaxUnflushedBytes * 0.75) return;
    let largest: IndexShard | undefined;
    for (const shard of this.shards.values()) {
      if (shard.activeSourceBytes > (largest?.activeSourceBytes ?? 0)) largest = shard;
    }
    if (!largest) return;
    this.logFlush = this.flushShard(largest)
      .catch(() => undefined)
      .finally(() => (this.logFlush = undefined));
  }

  /** Search targets of the named indexes (which must exist). */
  searchTargets(indexes: readonly string[]): SearchTarget[] {
    const targets: SearchTarget[] = [];
    for (const name of indexes) targets.push(...this.requireShard(name).searchTargets());
    return targets;
  }

  /** Bytes held, by kind (segment files per compaction level, memtables), over all indexes. */
  indexBytes(): Array<{ type: 'segment' | 'memtable'; level: string; bytes: number }> {
    const byLevel = new Map<number, number>();
    let memtable = 0;
    for (const shard of this.shards.values()) {
      memtable += shard.unflushedBytes;
      for (const s of shard.segmentRecords()) byLevel.set(s.level, (byLevel.get(s.level) ?? 0) + s.sizeBytes);
    }
    const out: Array<{ type: 'segment' | 'memtable'; level: string; bytes: number }> = [];
    for (const [level, bytes] of [...byLevel].sort((a, b) => a[0] - b[0])) out.push({ type: 'segment', level: `L${level}`, bytes });
    out.push({ type: 'memtable', level: 'memory', bytes: memtable });
    return out;
  }

  /**
   * `_forcemerge`: flushes the index, then merges all its segments into one (dropping deleted
   * documents), or, with `onlyExpungeDeletes`, each segment holding deleted documents on its own.
   */
  async forceMerge(name: string, onlyExpungeDeletes = false): Promise<void> {
    await this.flush([name]);
    const shard = this.requireShard(name);
    const plansOf = () => {
      const records = shard.segmentRecords();
      const holdsDeletes = (id: string) => shard.deletedInSegments([id]).lids.length > 0;
      if (onlyExpungeDeletes) return records.filter((r) => holdsDeletes(r.id)).map((r) => ({ from: r.level, to: r.level, segmentIds: [r.id] }));
      // one segment is left as it is, unless it holds deletes or is a quick flushed file (L0)
      if (records.length === 0 || (records.length === 1 && records[0]!.level > 0 && !holdsDeletes(records[0]!.id))) return [];
      const level = Math.max(...records.map((r) => r.level));
      return [{ from: level, to: level + 1, segmentIds: records.map((r) => r.id) }];
    };
    if (!(await this.compactor.runPlans(shard, plansOf))) {
      throw new SvcError('merge_exception', 500, `force merge of index [${name}] failed; its segments stay as they were`);
    }
  }

  /** Resolves when queued compactions are done (tests, shutdown). */
  compactionIdle(): Promise<void> {
    return this.compactor.idle();
  }

  /** Document bytes accepted but not yet in the object store, over all indexes (the write budget). */
  pendingStorageBytes(): number {
    let total = 0;
    for (const shard of this.shards.values()) total += shard.pendingStorageBytes;
    return total;
  }

  async flush(indexes: readonly string[] = this.indexNames()): Promise<void> {
    if (!this.recoveredFlag) await this.recover();
    await Promise.all(indexes.map((name) => this.flushShard(this.requireShard(name))));
  }

  /**
   * Wires a shard's flushes to the WAL and compaction: each committed memtable lets its WAL files
   * go and may start a merge at once, also while writes keep more memtables queued behind it.
   */
  private adopt(shard: IndexShard): IndexShard {
    shard.onSegmentFlushed = () => {
      // during the replay, files it has still to read must stay: recover() truncates after it
      if (this.recoveredFlag) this.truncateWal().catch((err: unknown) => this.opts.logger.warn({ err, index: shard.name }, 'write-ahead log truncation after a flush failed'));
      if (!shard.closed && this.mergesHere()) void this.compactor.schedule(shard);
    };
    return shard;
  }

  private mergesHere(): boolean {
    return this.opts.mergesHere?.() ?? true;
  }

  /**
   * Takes in the merges of an index another process committed (the storage role of a cluster):
   * the merged files fetched from the object store and swapped in under the deletes lock, so
   * that no catalog update of deletes runs in between; the replaced local copies let go.
   * Deletes taken here meanwhile are by `_lid` and so apply to the merged file at once; the ones
   * the catalog lacks are recorded on it with the next flush (an update that named a replaced
   * segment was refused and stays in the log). Returns whether anything was swapped.
   */
  async syncSegments(name: string): Promise<boolean> {
    const shard = this.shards.get(name);
    if (shard === undefined || shard.closed) return false;
    const removed = await shard.withDeletesLock(async () => {
      const heldBefore = new Set(shard.segmentRecords().map((r) => r.id));
      const change = shard.mergedElsewhere(heldBefore, await this.opts.catalog.listSegments(name));
      const opened: OpenSegment[] = [];
      for (const record of change.added) {
        const localPath = path.join(this.opts.dataDir, record.path);
        if (!fs.existsSync(localPath)) await this.opts.segmentStore.getToFile(record.path, localPath);
        opened.push({ record, reader: openSegment(localPath, record.id) });
        for (const lid of record.deletedLids ?? []) shard.deleted.add(lid);
      }
      if (shard.closed) {
        for (const o of opened) o.reader?.close();
        return [];
      }
      return opened.flatMap((segment, k) => shard.swapSegments(k === 0 ? change.removed : new Set(), segment));
    });
    if (removed.length === 0) return false;
    await this.compactor.retire(removed);
    this.opts.logger.info({ index: name, removed: removed.map((r) => r.record.id) }, 'segments merged by another process taken in');
    return true;
  }

  /**
   * Held indexes with a segment that `live` (the catalog's live segments of every index) no
   * longer lists: another process replaced it, and syncSegments takes the merge in.
   */
  indexesWithReplacedSegments(live: readonly SegmentRecord[]): string[] {
    const liveIds = new Set(live.map((r) => r.id));
    const names: string[] = [];
    for (const [name, shard] of this.shards) if (shard.segmentRecords().some((r) => !liveIds.has(r.id))) names.push(name);
    return names;
  }

  private async flushShard(shard: IndexShard): Promise<void> {
    try {
      await shard.flush().catch(async (err: unknown) => {
        // a delete update named a segment another process merged: take the merge in (unless a
        // call from that process did already), then again
        if (!(err instanceof ConflictError)) throw err;
        await this.syncSegments(shard.name);
        await shard.flush();
      });
      await shard.commitMappingIfChanged();
      // each committed memtable started a truncation (adopt), which logs its own failure
      await this.truncating.catch(() => undefined);
    } catch (err) {
      this.opts.logger.error({ err, index: shard.name }, 'flush failed; documents stay in the write-ahead log');
      throw err;
    }
  }

  private flushAged(): void {
    if (this.closed) return;
    for (const shard of this.shards.values()) {
      if (shard.memtableAgeMs >= this.opts.memtableMaxAgeMs) void this.flushShard(shard).catch(() => undefined);
    }
  }

  /** Releases the resources of indexes idle for longer than idleIndexMs: flush first, then close files. */
  releaseIdle(nowMs = Date.now()): string[] {
    const released: string[] = [];
    if (this.closed) return released;
    for (const shard of this.shards.values()) {
      if (nowMs - shard.lastUsedMs < this.opts.idleIndexMs) continue;
      if (!shard.holdsOnlySegments) {
        void this.flushShard(shard).catch(() => undefined);
        continue;
      }
      // quick flushed files become compact before the index rests (once per idle period: a
      // failed merge is logged and not retried until the index is used again)
      if (this.mergesHere() && this.idleMergedAt.get(shard) !== shard.lastUsedMs && idleMerge(shard.segmentRecords(), this.opts.mergePolicy) !== null) {
        this.idleMergedAt.set(shard, shard.lastUsedMs);
        void this.compactor.runPlans(shard, () => {
          const plan = idleMerge(shard.segmentRecords(), this.opts.mergePolicy);
          return plan === null ? [] : [plan];
        });
        continue;
      }
      if (shard.release()) released.push(shard.name);
    }
    if (released.length > 0) this.opts.logger.info({ indexes: released }, 'released idle indexes');
    return released;
  }

  /** per index, the last use before its idle merge ran (see releaseIdle) */
  private readonly idleMergedAt = new WeakMap<IndexShard, number>();

  private truncating: Promise<void> = Promise.resolve();

  /** Deletes WAL files whose documents are all in committed segments; one truncation at a time. */
  private truncateWal(): Promise<void> {
    this.truncating = this.truncating.catch(() => undefined).then(() => this.truncateWalNow());
    return this.truncating;
  }

  private async truncateWalNow(): Promise<void> {
    const current = await this.wal.rotate();
    let oldest = current;
    for (const shard of this.shards.values()) {
      const seq = shard.oldestWalSeq();
      if (seq !== null && seq < oldest) oldest = seq;
    }
    await this.wal.removeFilesBefore(oldest);
  }

  /** indexes handed over to another node (or being handed over): writes to them are refused here */
  private readonly handedOver = new Set<string>();

  /**
   * Hands an index over to another cache node, which opens it from the catalog alone: from now
   * on its writes are refused (IndexNotHereError), the writes already taken end, every memtable
   * is committed and every delete recorded in the catalog, then the index is let go here. When
   * that fails the index stays and takes writes again. Resolves once nothing of the index is
   * held only by this node (its log records may go).
   */
  async handOver(name: string): Promise<void> {
    if (!this.recoveredFlag) await this.recover();
    // an index being opened here (placed here a moment ago) is handed over once it is open
    await this.opening.get(name)?.catch(() => undefined);
    this.handedOver.add(name);
    const shard = this.shards.get(name);
    if (shard === undefined) return;
    shard.leaving = true;
    try {
      await shard.writesDone();
      await this.flushShard(shard);
      if (!shard.holdsOnlySegments) throw new IndexNotHereError(`index [${name}] still holds unflushed documents; its handover is given up`, name);
    } catch (err) {
      shard.leaving = false;
      this.handedOver.delete(name);
      throw err;
    }
    await this.letGo(shard);
    this.opts.logger.info({ index: name }, 'index handed over: everything of it is in the catalog');
  }

  /** An index whose handover did not complete is this node's again: opened again from the catalog. */
  async takeBack(name: string): Promise<void> {
    this.handedOver.delete(name);
    await this.openIndexes([name]);
  }

  /**
   * Lets go of an index another node holds now (it moved while this node's lease had lapsed):
   * its memtables are dropped without a flush (the other node took their documents from this
   * node's log) and its files closed; the catalog and the object store are left as they are.
   */
  async dropIndex(name: string): Promise<void> {
    const shard = this.shards.get(name);
    if (shard === undefined) return;
    await this.letGo(shard);
    this.opts.logger.warn({ index: name }, 'index let go: another node holds it now');
  }

  /** Stops holding an index another node takes: a merge that started commits first (before the other node opens it), then its files close. */
  private async letGo(shard: IndexShard): Promise<void> {
    this.shards.delete(shard.name);
    shard.closed = true;
    await this.compactor.idle();
    await shard.close();
  }

  async deleteIndex(name: string): Promise<void> {
    if (!this.recoveredFlag) await this.recover();
    const shard = this.requireShard(name);
    this.shards.delete(name);
    shard.closed = true;
    await this.compactor.idle();
    await shard.close();
    await this.opts.catalog.deleteIndex(name);
    const prefix = `indexes/${shard.uuid}/`;
    const objects = await this.opts.segmentStore.list(prefix);
    await this.opts.segmentStore.deleteMany(objects.map((o) => o.key));
    await fs.promises.rm(path.join(this.opts.dataDir, 'indexes', shard.uuid), { recursive: true, force: true });
    // its unflushed documents need no WAL file any more (replay skips them in any case)
    await this.truncateWal().catch((err: unknown) => this.opts.logger.warn({ err }, 'write-ahead log truncation after an index deletion failed'));
  }

  /** Flushes every memtable and closes files; the WAL is empty afterwards when all went well. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.flushTimer);
    clearInterval(this.idleTimer);
    for (const shard of this.shards.values()) shard.closed = true;
    try {
      // after a failed replay the log holds documents no memtable has: flushing must not let it go
      const replayed = await this.recovery?.then(
        () => true,
        () => false,
      );
      await this.compactor.idle();
      if (replayed) await this.flush();
    } finally {
      for (const shard of this.shards.values()) await shard.close();
      await this.flushWriter.close();
      await this.indexer.close();
      await this.compactor.close();
      await this.wal.close();
    }
  }
}

/** The persisted mapping a new index starts with: `fields` declared on top of `mappings`; `lenient` skips any that conflict. */
function initialMappings(init: NewIndexInit, lenient: boolean): unknown {
  if (!init.fields || init.fields.length === 0) return init.mappings ?? null;
  const mapping = init.mappings ? IndexMapping.fromJSON(init.mappings) : new IndexMapping();
  const update = mapping.update();
  for (const [name, type, parent] of init.fields) {
    try {
      update.declare(name, type, parent);
    } catch (err) {
      if (!(lenient || init.optionalFields?.has(name)) || !(err instanceof SvcError)) throw err;
    }
  }
  update.commit();
  return mapping.toJSON();
}

/**
 * Whether a logged document belongs to this shard's index: a write's index is in the catalog
 * before its WAL record is appended, so a record whose index is gone belongs to a deleted index,
 * and one older than the index to an earlier index of the same name.
 */
function replaysInto(shard: IndexShard, record: WalRecordReader): boolean {
  if (record.indexUuid !== undefined) return record.indexUuid === shard.uuid;
  // a record from before uuids were logged: its first document's generated id tells its time
  return record.count === 0 || idTimestampMs(firstIdOf(record)) >= shard.createdAtMs;
}

function firstIdOf(record: WalRecordReader): bigint {
  const copy = new WalRecordReader(record.record, 'wal record');
  copy.next();
  return copy.id;
}

function versionConflict(shard: IndexShard, id: string, current: number): ConflictError {
  return new ConflictError(`[${id}]: version conflict, document already exists (current version [${current}])`, 'version_conflict_engine_exception', {
    index_uuid: shard.uuid,
    shard: '0',
    index: shard.name,
  });
}

function documentMissing(shard: IndexShard, id: string): NotFoundError {
  return new NotFoundError(`[_doc][${id}]: document missing`, 'document_missing_exception', { index_uuid: shard.uuid, shard: '0', index: shard.name });
}

/** Puts back the keys a write changed when its log record failed, unless another write changed them since. */
function undoKeys(write: ShardWrite): void {
  for (let i = write.undo.length - 1; i >= 0; i--) {
    const [key, previous, set] = write.undo[i]!;
    if (write.shard.keyEntry(key) === set) write.shard.setKey(key, previous);
  }
}

/** Elasticsearch's partial update: objects merged key by key, anything else replaced. */
function mergeObjects(target: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  for (const [key, value] of Object.entries(patch)) {
    const current = target[key];
    if (isPlainObject(value) && isPlainObject(current)) mergeObjects(current, value);
    else target[key] = value;
  }
  return target;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The smallest `_id` of millisecond `ms`. */
function firstIdAt(ms: number): bigint {
  return BigInt(Math.max(0, ms - ID_EPOCH_MS)) << 22n;
}
