#!/usr/bin/env node
/**
 * Segment size and speed, without the service: generates the benchmark corpus, builds a memtable
 * the way the engine does (buildDocument on the parsed line with the line's own text), writes one
 * segment file and prints its bytes per section as % of the raw NDJSON, the write speed, and the
 * time to read 100 sources. The memtable's segment is written as a flush writes it (`--compression quick`)
 * or as a merge does (`--compression compact`). `--merge` also writes the same docs as `--parts` segments (the set a
 * run of flushes leaves) and then their merge, as compaction does.
 *
 *   npm run build && node dist/bench/segment-size.js --docs 200000
 *   node dist/bench/segment-size.js --docs 1000000 --merge --parts 6
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { IdGenerator, ID_EPOCH_MS } from '../src/common/ids.js';
import { buildDocument } from '../src/engine/document/index.js';
import { IndexMapping } from '../src/engine/mapping/index.js';
import { Memtable } from '../src/engine/memtable/index.js';
import { mergeSegments, openSegment, sectionSizes, writeSegment, type Compression, type SectionSizes } from '../src/engine/segment/index.js';
import { CorpusGenerator } from './corpus/index.js';
import { median } from './harness/stats.js';
import { integer } from './harness/cli-args.js';

interface Options {
  docs: number;
  seed: number;
  reads: number;
  merge: boolean;
  parts: number;
  keep: boolean;
  compression: Compression;
}

/** Ids as the engine hands them out at ~50,000 docs/s: a new millisecond every 50 docs. */
const DOCS_PER_MS = 50;

interface Built {
  memtables: Memtable[];
  rawBytes: number;
}

/** The corpus as `parts` memtables of consecutive docs. */
function buildMemtables(opts: Options, parts: number): Built {
  const gen = new CorpusGenerator({ seed: opts.seed, docs: opts.docs });
  const mapping = new IndexMapping();
  let generated = 0;
  const ids = new IdGenerator(() => ID_EPOCH_MS + 1_000_000_000 + Math.floor(generated / DOCS_PER_MS));
  const memtables: Memtable[] = [];
  let rawBytes = 0;
  for (let p = 0; p < parts; p++) {
    const m = new Memtable(`part-${p}`);
    const end = Math.round(((p + 1) * opts.docs) / parts);
    for (; generated < end; generated++) {
      const line = gen.next();
      rawBytes += Buffer.byteLength(line) + 1;
      const doc = buildDocument(JSON.parse(line), mapping, { id: ids.next(), lid: generated + 1 }, 0, line);
      m.add(doc);
    }
    memtables.push(m);
  }
  return { memtables, rawBytes };
}

function pct(bytes: number, raw: number): string {
  return `${((100 * bytes) / raw).toFixed(2).padStart(6)} %`;
}

function printSections(title: string, s: SectionSizes, raw: number): void {
  const rows: Array<[string, number]> = [
    ['doc store', s.docStore],
    ['_ts column', s.ts],
    ['_lid column', s.lid],
    ['_id column', s.ids],
  ];
  for (const f of s.fields) {
    if (f.postings > 0) rows.push([`${f.name} postings`, f.postings]);
    if (f.termBlocks > 0) rows.push([`${f.name} term blocks`, f.termBlocks]);
    const columns = f.presence + f.numeric + f.ordinals;
    if (columns > 0) rows.push([`${f.name} columns and presence`, columns]);
  }
  rows.push(['header, footer', s.header + s.footer]);
  console.log(`\n${title}: ${(s.fileBytes / 1e6).toFixed(2)} MB, ${pct(s.fileBytes, raw)} of raw`);
  for (const [name, bytes] of rows) console.log(`  ${name.padEnd(34)} ${String(bytes).padStart(11)} B ${pct(bytes, raw)}`);
}

/** The sections of several files added up, fields by name. */
function sumSections(all: SectionSizes[]): SectionSizes {
  const fields = new Map<string, SectionSizes['fields'][number]>();
  const total: SectionSizes = { fileBytes: 0, header: 0, docStore: 0, ts: 0, lid: 0, ids: 0, fields: [], footer: 0 };
  for (const s of all) {
    total.fileBytes += s.fileBytes;
    total.header += s.header;
    total.docStore += s.docStore;
    total.ts += s.ts;
    total.lid += s.lid;
    total.ids += s.ids;
    total.footer += s.footer;
    for (const f of s.fields) {
      const sum = fields.get(f.name) ?? { name: f.name, presence: 0, numeric: 0, ordinals: 0, postings: 0, termBlocks: 0 };
      sum.presence += f.presence;
      sum.numeric += f.numeric;
      sum.ordinals += f.ordinals;
      sum.postings += f.postings;
      sum.termBlocks += f.termBlocks;
      fields.set(f.name, sum);
    }
  }
  total.fields = [...fields.values()];
  return total;
}

/** Median milliseconds to read `docs` sources with a fresh reader (cold caches), then again (warm). */
function timeReads(file: string, docs: readonly number[], rounds: number): { coldMs: number; warmMs: number } {
  const cold: number[] = [];
  const warm: number[] = [];
  let chars = 0;
  for (let r = 0; r < rounds; r++) {
    const reader = openSegment(file);
    try {
      let t = performance.now();
      for (const d of docs) chars += reader.source(d).length;
      cold.push(performance.now() - t);
      t = performance.now();
      for (const d of docs) chars += reader.source(d).length;
      warm.push(performance.now() - t);
    } finally {
      reader.close();
    }
  }
  if (chars === 0) throw new Error('no source read');
  return { coldMs: median(cold), warmMs: median(warm) };
}

async function main(opts: Options): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-segment-size-'));
  try {
    let t = performance.now();
    const { memtables, rawBytes } = buildMemtables(opts, 1);
    const mem = memtables[0]!;
    console.log(`${opts.docs} docs, ${(rawBytes / 1e6).toFixed(1)} MB of NDJSON, memtable built in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    const file = path.join(dir, 'all.seg');
    const writes: number[] = [];
    const mainThread: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < 3; i++) {
      t = performance.now();
      const elu = performance.eventLoopUtilization();
      const used = process.cpuUsage();
      await writeSegment(mem, file, { compression: opts.compression });
      writes.push(performance.now() - t);
      // time the event loop was busy: the writer's work on this thread (compression on the
      // thread pool excluded)
      mainThread.push(performance.eventLoopUtilization(elu).active);
      // CPU of the whole process (the thread pool's compression included): less sensitive than
      // wall time to other work on the machine
      const spent = process.cpuUsage(used);
      cpu.push((spent.user + spent.system) / 1000);
    }
    const writeMs = median(writes);
    printSections('segment', sectionSizes(file), rawBytes);
    console.log(
      `\nwrite: ${writeMs.toFixed(0)} ms (median of 3), ${(rawBytes / 1e3 / writeMs).toFixed(1)} MB/s of raw NDJSON; ` +
        `main thread busy ${median(mainThread).toFixed(0)} ms; CPU ${median(cpu).toFixed(0)} ms, ${((1000 * median(cpu)) / opts.docs).toFixed(2)} µs per doc`,
    );

    const n = mem.numDocs;
    const newest = Array.from({ length: Math.min(100, n) }, (_, i) => n - 1 - i);
    const spread = Array.from({ length: Math.min(100, n) }, (_, i) => Math.floor(((i + 0.5) * n) / Math.min(100, n)));
    const a = timeReads(file, newest, opts.reads);
    const b = timeReads(file, spread, opts.reads);
    console.log(`read 100 newest sources (one or two blocks): cold ${a.coldMs.toFixed(2)} ms, warm ${a.warmMs.toFixed(3)} ms`);
    console.log(`read 100 sources spread over the segment (100 blocks): cold ${b.coldMs.toFixed(2)} ms, warm ${b.warmMs.toFixed(2)} ms`);

    if (opts.merge) {
      const pieces = buildMemtables(opts, opts.parts).memtables;
      const files = pieces.map((_, i) => path.join(dir, `part-${i}.seg`));
      for (let i = 0; i < pieces.length; i++) await writeSegment(pieces[i]!, files[i]!, { compression: opts.compression });
      printSections(`${opts.parts} segments, summed`, sumSections(files.map((f) => sectionSizes(f))), rawBytes);
      const parts = files.map((f) => openSegment(f));
      const merged = path.join(dir, 'merged.seg');
      t = performance.now();
      await writeSegment(mergeSegments('merged', parts), merged);
      const mergeMs = performance.now() - t;
      for (const p of parts) p.close();
      printSections(`merge of the ${opts.parts} segments`, sectionSizes(merged), rawBytes);
      console.log(`merge write: ${mergeMs.toFixed(0)} ms, ${(rawBytes / 1e3 / mergeMs).toFixed(1)} MB/s of raw NDJSON`);
    }
  } finally {
    if (opts.keep) console.log(`kept ${dir}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
}

function compressionKind(value: string): Compression {
  if (value !== 'quick' && value !== 'compact') throw new InvalidArgumentError('quick or compact');
  return value;
}

const program = new Command()
  .name('segment-size')
  .description('bytes per section, write speed and source reads of one segment file of the benchmark corpus')
  .option('--docs <n>', 'documents in the corpus', integer(1), 200_000)
  .option('--seed <n>', 'corpus seed', integer(0), 42)
  .option('--reads <n>', 'rounds of each read timing', integer(1), 30)
  .option('--merge', 'also write the docs as --parts segments and their merge', false)
  .option('--parts <n>', 'segments the docs are split into for --merge', integer(2), 2)
  .option('--keep', 'keep the temporary directory', false)
  .option('--compression <kind>', 'compression of the flushed segments: quick (as a flush writes them) or compact (as a merge does)', compressionKind, 'quick' as Compression);
program.parse();
await main(program.opts<Options>());
