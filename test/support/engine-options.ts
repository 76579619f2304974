/**
 * Options of an engine opened directly by a test: a local object store and the SQLite catalog
 * in `dataDir`, and memtables that flush only when the test asks.
 */
import path from 'node:path';
import { pino } from 'pino';
import type { EngineOptions } from '../../src/engine/index.js';
import type { Metastore } from '../../src/metastore/index.js';
import { metastoreCatalog } from '../../src/node/metastore-catalog.js';
import { LocalObjectStore } from '../../src/storage/index.js';

export function testEngineOptions(dataDir: string, metastore: Metastore, overrides: Partial<EngineOptions> = {}): EngineOptions {
  return {
    dataDir,
    catalog: metastoreCatalog(metastore),
    segmentStore: new LocalObjectStore(path.join(dataDir, 'objects')),
    logger: pino({ level: 'silent' }),
    memtableMaxBytes: 1 << 30,
    memtableMaxAgeMs: 3_600_000,
    walMaxUnflushedBytes: 1024 ** 3,
    idleIndexMs: 3_600_000,
    ...overrides,
  };
}
