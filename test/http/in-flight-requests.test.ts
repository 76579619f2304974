/**
 * The in-flight requests budget (SVC_IN_FLIGHT_REQUESTS_BYTES): request bodies being received
 * and answers being sent count against it; a body that would pass it gets 429
 * circuit_breaking_exception, by its Content-Length before it is read or at the chunk that
 * passes it; what a request held is given back when its response ends.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { describe, it } from 'node:test';
import { errors } from '@elastic/elasticsearch';
import { esClientNode } from '../support/es-client-node.js';

const KiB = 1024;
const LIMIT = 64 * KiB;

/** NDJSON bulk lines of `bytes` bytes or a little more, one document per ~100 bytes. */
function bulkBody(bytes: number, tag: string): Buffer {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const pair = `{"index":{"_index":"held"}}\n{"message":"${tag} document ${i} ${'x'.repeat(40)}"}\n`;
    lines.push(pair);
    size += pair.length;
  }
  return Buffer.from(lines.join(''));
}

async function inFlightBytes(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('svc_in_flight_requests_bytes '));
  assert.ok(line, 'the gauge is exported');
  return Number(line.split(' ')[1]);
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.fail(`never: ${what}`);
}

/** A bulk request whose body is sent up to `sent` bytes and held there until finish() is called. */
function heldBulk(url: string, body: Buffer, sent: number): { finish(): Promise<{ status: number; text: string }> } {
  const target = new URL('/_bulk', url);
  let answered!: (answer: { status: number; text: string }) => void;
  const answer = new Promise<{ status: number; text: string }>((resolve) => (answered = resolve));
  const request = http.request(target, { method: 'POST', headers: { 'content-type': 'application/x-ndjson', 'content-length': body.length } }, (res) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => answered({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
  });
  request.write(body.subarray(0, sent));
  return {
    finish() {
      request.end(body.subarray(sent));
      return answer;
    },
  };
}

/** A bulk request with chunked transfer encoding: no Content-Length to refuse it by. */
function chunkedBulk(url: string, body: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(new URL('/_bulk', url), { method: 'POST', headers: { 'content-type': 'application/x-ndjson' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
    });
    // the server may answer and stop reading before the whole body is sent
    request.on('error', reject);
    for (let i = 0; i < body.length; i += 4 * KiB) request.write(body.subarray(i, i + 4 * KiB));
    request.end();
  });
}

describe('in-flight requests budget', () => {
  const es = esClientNode({ SVC_IN_FLIGHT_REQUESTS_BYTES: String(LIMIT) });

  it('refuses bodies that would pass it with 429 while another body is held, answers probes, and takes them again once it is given back', async () => {
    const { url } = es.node;
    const held = heldBulk(url, bulkBody(48 * KiB, 'held'), 40 * KiB);
    await until('the held body is counted', async () => (await inFlightBytes(url)) >= 40 * KiB);

    // refused by its Content-Length, through the official client
    const other = bulkBody(30 * KiB, 'other');
    const refused = await es.client.bulk({ body: other.toString() }).then(
      () => assert.fail('the bulk request was taken'),
      (err: unknown) => err,
    );
    assert.ok(refused instanceof errors.ResponseError, String(refused));
    assert.equal(refused.statusCode, 429);
    const error = (refused.body as { error: { type: string; reason: string; bytes_limit: number; bytes_wanted: number; durability: string; root_cause: unknown[] } }).error;
    assert.equal(error.type, 'circuit_breaking_exception');
    assert.match(error.reason, /^\[in_flight_requests\] Data too large, data for \[<http_request>\] would be \[\d+\/[\d.]+kb\], which is larger than the limit of \[65536\/64\.0kb\]$/);
    assert.equal(error.bytes_limit, LIMIT);
    assert.ok(error.bytes_wanted > LIMIT);
    assert.equal(error.durability, 'TRANSIENT');
    assert.equal(error.root_cause.length, 1);

    // refused at the chunk that passes it, when there is no Content-Length
    const chunked = await chunkedBulk(url, other);
    assert.equal(chunked.status, 429, chunked.text);
    assert.equal((JSON.parse(chunked.text) as { error: { type: string } }).error.type, 'circuit_breaking_exception');

    // requests without a body go on
    assert.equal((await fetch(`${url}/health/livez`)).status, 200);

    const first = await held.finish();
    assert.equal(first.status, 200, first.text);
    assert.equal((JSON.parse(first.text) as { errors: boolean }).errors, false);
    await until('what the requests held is given back', async () => (await inFlightBytes(url)) === 0);

    const again = await es.client.bulk({ body: other.toString(), refresh: true });
    assert.equal(again.statusCode, 200);
    assert.equal(again.body.errors, false);
  });

  it('takes a body larger than the budget when nothing else is in flight', async () => {
    const big = bulkBody(LIMIT + 16 * KiB, 'big');
    const answer = await es.client.bulk({ body: big.toString() });
    assert.equal(answer.statusCode, 200);
    assert.equal(answer.body.errors, false);
  });
});
