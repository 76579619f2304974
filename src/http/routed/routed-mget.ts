/**
 * `_mget` in the api role of a cluster: the entries are parsed and checked here (a forbidden or
 * missing index answers in its entry, as in one process), each cache node holding some of the
 * indexes gets one `_mget` of its entries, all nodes at once, and the answer lists every entry
 * in the order of the request. The nodes' entries are copied as they rendered them (documents'
 * sources byte for byte).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { forbiddenIndexError, assertNamedIndicesPermitted } from '../../auth/index.js';
import { IndexNotFoundError, ServiceUnavailableError, SvcError } from '../../common/index.js';
import { accessOf } from '../auth-hook.js';
import { notFoundText, readIndexIn } from '../documents/document-routes.js';
import { mgetErrorText, parseMget } from '../documents/mget-route.js';
import { sendJsonText } from '../json-reply.js';
import { jsonObjectBody } from '../request-body.js';
import type { RoutedApiDeps } from './deps.js';
import { askHolders } from './fan-out.js';
import { catalogOf, splitUrl, type ListingRequest } from './listing.js';

export function registerRoutedMget(app: FastifyInstance, deps: RoutedApiDeps): void {
  const handler = async (request: ListingRequest, reply: FastifyReply) => sendJsonText(reply, await routedMget(deps, request));
  app.get('/_mget', handler);
  app.post('/_mget', handler);
  app.get('/:index/_mget', handler);
  app.post('/:index/_mget', handler);
}

async function routedMget(deps: RoutedApiDeps, request: ListingRequest): Promise<string> {
  const access = accessOf(request);
  if (request.params.index !== undefined) assertNamedIndicesPermitted(access, 'read', [request.params.index]);
  const docs = parseMget(request.body, request.params.index, request.query);
  // each entry's own `_source`, sent on as given (parseMget has checked it)
  const given = jsonObjectBody(request.body)?.docs;
  const sources = Array.isArray(given) ? given.map((d) => (d as Record<string, unknown>)._source) : [];
  const rendered: string[] = new Array(docs.length);
  // concrete index → the entries reading it
  const wanted = new Map<string, number[]>();
  let catalog = await catalogOf(deps);
  let known = new Set(catalog.indexNames());
  let fresh = false;
  for (let i = 0; i < docs.length; i++) {
    const doc = docs[i]!;
    try {
      if (!access.can('read', doc.index)) throw forbiddenIndexError('read', doc.index);
      let index: string;
      try {
        index = readIndexIn((name) => known.has(name), catalog.aliasMap(), doc.index);
      } catch (err) {
        if (!(err instanceof IndexNotFoundError) || fresh) throw err;
        // created through another api process since the catalog was read
        catalog = await catalogOf(deps, true);
        known = new Set(catalog.indexNames());
        fresh = true;
        index = readIndexIn((name) => known.has(name), catalog.aliasMap(), doc.index);
      }
      let entries = wanted.get(index);
      if (entries === undefined) wanted.set(index, (entries = []));
      entries.push(i);
    } catch (err) {
      if (!(err instanceof SvcError)) throw err;
      rendered[i] = mgetErrorText(doc, err);
    }
  }
  const entriesOf = (held: readonly string[]) => held.flatMap((index) => wanted.get(index)!).sort((a, b) => a - b);
  // the index an alias resolved to here, so that a node whose aliases are a heartbeat old reads
  // the same one; the alias itself when the caller may read only it (the node checks access again)
  const indexOf = new Map<number, string>();
  for (const [index, entries] of wanted) for (const i of entries) indexOf.set(i, access.can('read', index) ? index : docs[i]!.index);
  const [, query] = splitUrl(request.url);
  const answers = await askHolders(deps, request, [...wanted.keys()].sort(), {
    method: 'POST',
    url: () => `/_mget${query}`,
    body: (held) => Buffer.from(JSON.stringify({ docs: entriesOf(held).map((i) => ({ _index: indexOf.get(i), _id: docs[i]!.id, ...(sources[i] === undefined ? {} : { _source: sources[i] }) })) })),
    headers: { 'content-type': 'application/json' },
  });
  for (const answer of answers) {
    const entries = entriesOf(answer.held);
    const texts = arrayItemTexts(answer.body.toString('utf8'), 'docs');
    if (texts.length !== entries.length) throw new ServiceUnavailableError(`a cache node answered an _mget of ${entries.length} documents with ${texts.length}`);
    entries.forEach((i, k) => (rendered[i] = texts[k]!));
  }
  // an index of the catalog that no cache node holds yet has no documents
  for (const [index, entries] of wanted) for (const i of entries) rendered[i] ??= notFoundText(index, docs[i]!.id);
  return `{"docs":[${rendered.join(',')}]}`;
}

/** The texts of the items of the array under `key` of a JSON object's text, as they are written. */
function arrayItemTexts(text: string, key: string): string[] {
  const open = text.indexOf('[', text.indexOf(JSON.stringify(key)));
  const items: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      // to the end of the string, past escaped characters
      for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '{' || c === '[') {
      depth++;
    } else if (c === '}' || c === ']') {
      if (depth === 0) {
        if (i > start) items.push(text.slice(start, i).trim());
        break;
      }
      depth--;
    } else if (c === ',' && depth === 0) {
      items.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  return items.filter((t) => t.length > 0);
}
