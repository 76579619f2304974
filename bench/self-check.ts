/**
 * `run.js --self-check`: checks the corpus generator without a server. Same seed gives the
 * same bytes, another seed other bytes; documents have the expected shape and size; word
 * frequencies follow the Zipf law; the tally agrees with a plain recount.
 */
import crypto from 'node:crypto';
import { CorpusGenerator, CorpusTally, chooseQueryWords, tallyWatchFor, QUERY_RANKS, PREFIX_TARGET_TERMS } from './corpus/index.js';
import { buildBulkBodies } from './ingest/index.js';

interface Outcome {
  name: string;
  ok: boolean;
  detail: string;
}

export function selfCheck(docs: number, seed: number): boolean {
  const outcomes: Outcome[] = [];
  const check = (name: string, ok: boolean, detail: string) => outcomes.push({ name, ok, detail });

  const digest = (s: number) => {
    const gen = new CorpusGenerator({ seed: s, docs });
    const h = crypto.createHash('sha256');
    for (const body of buildBulkBodies(gen, { batchDocs: 1000, index: 'check' }).bodies) h.update(body);
    return h.digest('hex');
  };
  const first = digest(seed);
  const again = digest(seed);
  const other = digest(seed + 1);
  check('same seed, same bytes', first === again, first.slice(0, 16));
  check('other seed, other bytes', first !== other, other.slice(0, 16));

  const gen = new CorpusGenerator({ seed, docs });
  const words = chooseQueryWords(gen);
  const tally = new CorpusTally(tallyWatchFor(words));
  const lines: string[] = [];
  const tss: number[] = [];
  let bytes = 0;
  let shapeProblem: string | undefined;
  let lastTs = -Infinity;
  let nonAscii = 0;
  for (let i = 0; i < docs; i++) {
    const json = gen.next();
    bytes += json.length + 1;
    tally.add(gen.lastLine, gen.lastTs, gen.lastStatus);
    lines.push(gen.lastLine);
    tss.push(gen.lastTs);
    if (/[^\x20-\x7e]/.test(json)) nonAscii++;
    const doc = JSON.parse(json) as Record<string, unknown>;
    if (shapeProblem) continue;
    if (typeof doc._line !== 'string' || doc._line !== gen.lastLine) shapeProblem = `doc ${i}: _line`;
    else if (!Number.isInteger(doc._ts) || (doc._ts as number) < lastTs) shapeProblem = `doc ${i}: _ts not rising`;
    else if (typeof doc.service !== 'string' || typeof doc.host !== 'string' || typeof doc.level !== 'string') shapeProblem = `doc ${i}: keyword fields`;
    else if (doc.status !== undefined && !Number.isInteger(doc.status)) shapeProblem = `doc ${i}: status`;
    lastTs = doc._ts as number;
  }
  check('documents have _line, rising _ts, service, host, level', shapeProblem === undefined, shapeProblem ?? `${docs} parsed`);
  check('documents are printable ASCII', nonAscii === 0, `${nonAscii} with other bytes`);
  const avg = bytes / docs;
  check('about 200 bytes per document line', avg >= 180 && avg <= 230, `${avg.toFixed(1)} bytes`);
  const spanOk = tss[0]! >= gen.startMs && tss[tss.length - 1]! < gen.startMs + gen.spanMs;
  check('_ts stays within the time span', spanOk, `${new Date(tss[0]!).toISOString()} .. ${new Date(tss[tss.length - 1]!).toISOString()}`);

  // least-squares slope of log(draws) against log(rank) over ranks 1..1000
  let sx = 0, sy = 0, sxx = 0, sxy = 0, m = 0;
  for (let k = 1; k <= 1000; k++) {
    const c = gen.drawCounts[k - 1]!;
    if (c === 0) continue;
    const x = Math.log(k), y = Math.log(c);
    sx += x; sy += y; sxx += x * x; sxy += x * y; m++;
  }
  const slope = (m * sxy - sx * sy) / (m * sxx - sx * sx);
  check('word draws follow Zipf with s near 1.1', slope < -0.95 && slope > -1.25, `slope ${slope.toFixed(3)}`);

  // the tally, recounted the plain way
  const counts = tally.counts();
  const tokensOf = (line: string) => line.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  let df = 0, conj = 0, phrase = 0, prefixDocs = 0, recent = 0;
  const prefixTerms = new Set<string>();
  const newest: number[] = [];
  const phraseText = ` ${words.phrase[0]} ${words.phrase[1]} `;
  for (let i = 0; i < lines.length; i++) {
    const tokens = tokensOf(lines[i]!);
    const set = new Set(tokens);
    if (set.has(words.common)) df++;
    if (set.has(words.conjunction[0]) && set.has(words.conjunction[1])) conj++;
    if (` ${tokens.join(' ')} `.includes(phraseText)) phrase++;
    const withPrefix = tokens.filter((t) => t.startsWith(words.prefix));
    withPrefix.forEach((t) => prefixTerms.add(t));
    if (withPrefix.length > 0) prefixDocs++;
    if (tss[i]! >= words.recentFromMs && set.has(words.recent)) recent++;
    if (set.has(words.newest)) newest.unshift(tss[i]!);
  }
  const recount = { df, conj, phrase, prefixDocs, prefixTerms: prefixTerms.size, recent, newest: newest.slice(0, 100).join(',') };
  const tallied = {
    df: counts.docFrequency[words.common],
    conj: counts.conjunction[`${words.conjunction[0]} ${words.conjunction[1]}`],
    phrase: counts.phrase[`${words.phrase[0]} ${words.phrase[1]}`],
    prefixDocs: counts.prefixDocs[words.prefix],
    prefixTerms: counts.prefixTerms[words.prefix],
    recent: counts.recent[`${words.recent} @${words.recentFromMs}`],
    newest: counts.newestTs[words.newest]!.join(','),
  };
  const mismatch = Object.keys(recount).filter((k) => recount[k as keyof typeof recount] !== tallied[k as keyof typeof tallied]);
  check('tally agrees with a plain recount', mismatch.length === 0, mismatch.length ? `differs in ${mismatch.join(', ')}` : JSON.stringify({ ...recount, newest: undefined }));

  check('rare word is rare, common word common', (counts.docFrequency[words.rare] ?? 0) < docs / 5000 && df > docs / 50, `rank ${QUERY_RANKS.rare}: ${counts.docFrequency[words.rare]} docs, rank ${QUERY_RANKS.common}: ${df} docs`);
  check('phrase words occur together often', phrase > docs / 100, `"${words.phrase.join(' ')}" in ${phrase} docs`);
  check('prefix expands to a few hundred vocabulary words', words.prefixVocabularyTerms >= PREFIX_TARGET_TERMS / 2 && words.prefixVocabularyTerms <= PREFIX_TARGET_TERMS * 2, `${words.prefix}*: ${words.prefixVocabularyTerms} words`);

  for (const o of outcomes) process.stdout.write(`${o.ok ? 'ok  ' : 'FAIL'}  ${o.name}: ${o.detail}\n`);
  const failed = outcomes.filter((o) => !o.ok).length;
  process.stdout.write(failed ? `${failed} of ${outcomes.length} checks failed\n` : `all ${outcomes.length} checks passed\n`);
  return failed === 0;
}
