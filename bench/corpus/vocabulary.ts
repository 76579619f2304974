/**
 * The word vocabulary, in Zipf rank order: real words common in logs first, then generated
 * pseudo-words (syllable chains such as "brakuvon") up to the requested size. A word never
 * collides with a template word, and never consists of hex letters only, so that hex ids in the
 * corpus cannot be mistaken for it.
 */
import { Prng } from './prng.js';
import { templateWords } from './templates.js';

const COMMON_WORDS = `
the of and is not on with was be has have no can will should could would this that it its all any
new old now then when where which while into over under between without within before again
connection timeout retry upstream downstream backend frontend client server socket pool thread
database table index query transaction commit rollback lock deadlock replica primary shard leader
follower cluster node pod container deployment service endpoint handler controller worker job task
batch stream event message topic partition offset consumer producer broker payload header body
token credential password permission role account tenant customer invoice payment refund cart
product price discount coupon stock warehouse parcel delivery address country currency amount
total balance limit quota rate burst throttle backoff circuit breaker open closed half healthy
unhealthy degraded ready alive started stopped restarted killed evicted scheduled pending running
succeeded unknown invalid missing duplicate expired revoked denied allowed granted blocked found
created updated deleted written read loaded saved sent received dropped rejected accepted queued
flushed compacted merged uploaded downloaded fetched parsed encoded decoded validated normalized
config setting option feature flag version build release migration schema column value field
record entry item element object array string number boolean null empty full partial slow fast
memory disk cpu network latency throughput bandwidth heap gc pause allocation leak spike peak
warning notice critical fatal trace span parent child root context deadline cancelled
exceeded reached unavailable refused reset closed broken pipe handshake certificate tls dns
resolve lookup route path file directory bucket blob key secret vault login logout signup
email sms push webhook callback hook plugin module package library driver adapter proxy
balancer ingress egress firewall port host address range subnet gateway vpc region zone
daily hourly nightly weekly monthly report export import sync async sequential parallel
`;

/** Consonant onsets and vowel nuclei chosen so that pseudo-words are pronounceable. */
const ONSETS = ['b', 'br', 'c', 'ch', 'd', 'dr', 'f', 'fl', 'g', 'gr', 'h', 'j', 'k', 'kr', 'l', 'm', 'n', 'p', 'pl', 'r', 's', 'sh', 'st', 't', 'tr', 'v', 'w', 'z'];
const NUCLEI = ['a', 'e', 'i', 'o', 'u', 'ai', 'ou', 'ea', 'io'];
const CODAS = ['', '', '', 'n', 'r', 's', 'l', 'x', 'k', 'm'];

const ONLY_HEX_LETTERS = /^[a-f]+$/;

export interface Vocabulary {
  /** words[k - 1] is the word of Zipf rank k */
  readonly words: readonly string[];
  /** how many of the top ranks are real words */
  readonly realWordCount: number;
}

export function buildVocabulary(seed: number, size: number): Vocabulary {
  const prng = new Prng(seed);
  const reserved = templateWords();
  const seen = new Set<string>();
  const words: string[] = [];

  const real = COMMON_WORDS.split(/\s+/).filter((w) => w.length > 0 && !reserved.has(w) && !ONLY_HEX_LETTERS.test(w));
  for (const w of shuffle(real, prng)) {
    if (words.length >= size || seen.has(w)) continue;
    seen.add(w);
    words.push(w);
  }
  const realWordCount = words.length;

  while (words.length < size) {
    const w = pseudoWord(prng);
    if (seen.has(w) || reserved.has(w) || ONLY_HEX_LETTERS.test(w)) continue;
    seen.add(w);
    words.push(w);
  }
  return { words, realWordCount };
}

function pseudoWord(prng: Prng): string {
  // two to four syllables, weighted towards three: word lengths of about 6 to 10 letters
  const r = prng.next();
  const syllables = r < 0.3 ? 2 : r < 0.85 ? 3 : 4;
  let w = '';
  for (let i = 0; i < syllables; i++) {
    w += prng.pick(ONSETS) + prng.pick(NUCLEI);
    if (i === syllables - 1) w += prng.pick(CODAS);
  }
  return w;
}

function shuffle<T>(items: readonly T[], prng: Prng): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = prng.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
