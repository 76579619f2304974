/**
 * The four kinds of log line: web access (combined log format), application messages,
 * exception heads (Java, Python, Go) and key=value lines. Each writer fills a DocumentDraft;
 * the text mixes template words, Zipf vocabulary words and high-cardinality numbers and ids.
 */
import type { Prng } from './prng.js';
import { WeightedSampler } from './weighted.js';
import {
  APP_VERBS, EXCEPTIONS, EXCEPTION_CLASSES, EXCEPTION_METHODS, HTTP_METHODS, HTTP_METHOD_WEIGHTS, HTTP_STATUSES,
  HTTP_STATUS_WEIGHTS, KV_KEYS, LEVELS, LEVEL_WEIGHTS, THREADS, USER_AGENTS, USER_AGENT_WEIGHTS,
} from './templates.js';

/** What a line writer needs from the generator: randomness and vocabulary words. */
export interface WordSource {
  readonly prng: Prng;
  /** one Zipf-drawn word */
  word(): string;
  /** n words separated by spaces; sometimes starting with a frequent collocation */
  words(n: number): string;
}

/** The parts of a document a line writer decides; the generator adds `_ts`, service and host. */
export interface DocumentDraft {
  line: string;
  level: string;
  /** HTTP status, access lines only; -1 when absent */
  status: number;
  /** -1 when absent */
  latencyMs: number;
}

export type LineWriter = (src: WordSource, tsMs: number, draft: DocumentDraft) => void;

const methods = new WeightedSampler(HTTP_METHODS, HTTP_METHOD_WEIGHTS);
const statuses = new WeightedSampler(HTTP_STATUSES, HTTP_STATUS_WEIGHTS);
const userAgents = new WeightedSampler(USER_AGENTS, USER_AGENT_WEIGHTS);
const levels = new WeightedSampler(LEVELS, LEVEL_WEIGHTS);
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

function clfDate(tsMs: number): string {
  const d = new Date(tsMs);
  return `${pad2(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())} +0000`;
}

/** log-normal milliseconds with a median near e^mu */
function latency(prng: Prng, mu: number): number {
  return Math.min(60_000, Math.round(Math.exp(mu + prng.normal())));
}

function hex16(prng: Prng): string {
  return prng.nextUint32().toString(16).padStart(8, '0') + prng.nextUint32().toString(16).padStart(8, '0');
}

function accessPath(src: WordSource): string {
  const prng = src.prng;
  switch (prng.int(5)) {
    case 0:
      return `/api/v1/${src.word()}/${prng.range(1, 9_999_999)}`;
    case 1:
      return `/api/v2/${src.word()}/${src.word()}?page=${prng.range(1, 50)}`;
    case 2:
      return `/static/${src.word()}/${src.word()}.js`;
    case 3:
      return `/${src.word()}/${src.word()}/${src.word()}`;
    default:
      return `/search?q=${src.word()}+${src.word()}`;
  }
}

export const writeAccessLine: LineWriter = (src, tsMs, draft) => {
  const prng = src.prng;
  const ip = `${prng.range(1, 223)}.${prng.int(256)}.${prng.int(256)}.${prng.range(1, 254)}`;
  const status = statuses.sample(prng);
  const bytes = status === 204 || status === 304 ? 0 : Math.round(Math.exp(7.5 + prng.normal()));
  const referer = prng.chance(0.8) ? '-' : `https://www.example.com/${src.word()}`;
  draft.line = `${ip} - - [${clfDate(tsMs)}] "${methods.sample(prng)} ${accessPath(src)} HTTP/1.1" ${status} ${bytes} "${referer}" "${userAgents.sample(prng)}"`;
  draft.level = status >= 500 ? 'ERROR' : status >= 400 ? 'WARN' : 'INFO';
  draft.status = status;
  draft.latencyMs = latency(prng, 3);
};

export const writeAppLine: LineWriter = (src, _tsMs, draft) => {
  const prng = src.prng;
  const level = levels.sample(prng);
  const ms = latency(prng, 3.5);
  const thread = `${prng.pick(THREADS)}-${prng.range(1, 16)}`;
  let msg: string;
  switch (prng.int(8)) {
    case 0:
      msg = `order ${prng.range(1, 9_999_999)} shipped to customer ${prng.range(1, 999_999)} in ${ms}ms via ${src.word()}`;
      break;
    case 1:
      msg = `${src.words(2)} ${prng.pick(APP_VERBS)} for tenant ${src.word()} in ${ms}ms`;
      break;
    case 2:
      msg = `retrying ${src.words(2)} attempt ${prng.range(1, 5)}/5 after ${ms}ms`;
      break;
    case 3:
      msg = `user ${prng.range(1, 2_000_000)} ${src.words(3)}`;
      break;
    case 4:
      msg = `processed ${prng.range(1, 50_000)} ${src.word()} records from ${src.words(2)} queue`;
      break;
    case 5:
      msg = `cache ${src.words(2)} hit ratio 0.${pad2(prng.int(100))}`;
      break;
    case 6:
      msg = `session ${hex16(prng)} ${src.words(4)}`;
      break;
    default:
      msg = `${src.words(3)} ${prng.pick(APP_VERBS)} ${src.words(2)}`;
  }
  draft.line = `${level} [${thread}] ${msg}`;
  draft.level = level;
  draft.status = -1;
  draft.latencyMs = prng.chance(0.5) ? ms : -1;
};

export const writeExceptionLine: LineWriter = (src, _tsMs, draft) => {
  const prng = src.prng;
  switch (prng.int(4)) {
    case 0:
    case 1: {
      const cls = prng.pick(EXCEPTION_CLASSES);
      draft.line = `${prng.pick(EXCEPTIONS)}: ${src.words(3)} at com.acme.${src.word()}.${src.word()}.${cls}.${prng.pick(EXCEPTION_METHODS)}(${cls}.java:${prng.range(20, 900)})`;
      break;
    }
    case 2:
      draft.line = `Traceback (most recent call last): File "/app/${src.word()}/${src.word()}.py", line ${prng.range(5, 800)}, in ${src.word()} ValueError: ${src.words(2)}`;
      break;
    default: {
      const length = prng.range(1, 64);
      draft.line = `panic: runtime error: index out of range [${length + prng.int(8)}] with length ${length} goroutine ${prng.range(1, 20_000)} [running]: ${src.word()}.${src.word()}`;
    }
  }
  draft.level = 'ERROR';
  draft.status = -1;
  draft.latencyMs = -1;
};

export const writeKeyValueLine: LineWriter = (src, _tsMs, draft) => {
  const prng = src.prng;
  const level = levels.sample(prng);
  const ms = latency(prng, 2.5);
  let line = `level=${level.toLowerCase()} msg="${src.words(prng.range(2, 4))}"`;
  switch (prng.int(4)) {
    case 0:
      line += ` key=user:${prng.range(1, 2_000_000)} latency_ms=${ms}`;
      break;
    case 1:
      line += ` trace_id=${hex16(prng)} ${prng.pick(KV_KEYS)}=${src.word()}`;
      break;
    case 2:
      line += ` ${prng.pick(KV_KEYS)}=${src.word()} attempt=${prng.range(1, 5)} latency_ms=${ms}`;
      break;
    default:
      line += ` bytes=${prng.range(0, 5_000_000)} duration=${ms}ms`;
  }
  draft.line = line;
  draft.level = level;
  draft.status = -1;
  draft.latencyMs = ms;
};
