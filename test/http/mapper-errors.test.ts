/**
 * A document whose value does not fit its field's mapped type fails alone, with Elasticsearch's
 * bulk item: status 400, its `_index` and `_id`, a `mapper_parsing_exception` with the field,
 * type, id and value preview, and the cause below it; the rest of the batch is stored.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { esErrorBody } from '../../src/http/error-render.js';
import { ndjson, request } from '../support/node.js';
import { esClientNode } from '../support/es-client-node.js';

interface ErrorObject {
  type: string;
  reason: string;
  index?: string;
  caused_by?: ErrorObject;
}
interface BulkItem {
  _index: string;
  _type: string;
  _id: string | null;
  status: number;
  error?: ErrorObject;
}
interface BulkBody {
  errors: boolean;
  items: Array<{ index: BulkItem }>;
}

describe('mapper parsing errors in bulk items', () => {
  const es = esClientNode();

  before(async () => {
    const { node } = es;
    const created = await request(`${node.url}/typed`, {
      method: 'PUT',
      body: { mappings: { properties: { status: { type: 'long' }, ratio: { type: 'double' }, at: { type: 'date' }, tag: { type: 'keyword' }, ok: { type: 'boolean' } } } },
    });
    assert.equal(created.status, 200);
  });


  const cases: Array<{ doc: object; field: string; type: string; preview: string; cause: ErrorObject }> = [
    { doc: { status: 'abc' }, field: 'status', type: 'long', preview: 'abc', cause: { type: 'illegal_argument_exception', reason: 'For input string: "abc"' } },
    { doc: { ratio: 'half' }, field: 'ratio', type: 'double', preview: 'half', cause: { type: 'number_format_exception', reason: 'For input string: "half"' } },
    {
      doc: { at: 'not a date' },
      field: 'at',
      type: 'date',
      preview: 'not a date',
      cause: {
        type: 'illegal_argument_exception',
        reason: 'failed to parse date field [not a date] with format [strict_date_optional_time||epoch_millis]',
        caused_by: { type: 'date_time_parse_exception', reason: 'Failed to parse with all enclosed parsers' },
      },
    },
    { doc: { tag: { a: 1, b: [1, 2] } }, field: 'tag', type: 'keyword', preview: '{a=1, b=[1, 2]}', cause: { type: 'illegal_state_exception', reason: "Can't get text on a START_OBJECT" } },
    {
      doc: { ok: 'yes' },
      field: 'ok',
      type: 'boolean',
      preview: 'yes',
      cause: { type: 'illegal_argument_exception', reason: 'Failed to parse value [yes] as only [true] or [false] are allowed.' },
    },
  ];

  it('each bad document gets its own 400 item with the cause; the good ones are stored', async () => {
    const lines: unknown[] = [];
    for (const c of cases) lines.push({ index: { _index: 'typed' } }, c.doc, { index: { _index: 'typed' } }, { status: 7 });
    const res = await request<BulkBody>(`${es.node.url}/_bulk?refresh=true`, { body: ndjson(lines), headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.errors, true);
    cases.forEach((c, k) => {
      const bad = res.body.items[2 * k]!.index;
      assert.equal(bad.status, 400);
      assert.equal(bad._index, 'typed');
      assert.equal(bad._type, '_doc');
      assert.equal(typeof bad._id, 'string', 'the failed document keeps its id');
      assert.deepEqual(bad.error, {
        type: 'mapper_parsing_exception',
        reason: `failed to parse field [${c.field}] of type [${c.type}] in document with id '${bad._id}'. Preview of field's value: '${c.preview}'`,
        caused_by: c.cause,
      });
      assert.equal(res.body.items[2 * k + 1]!.index.status, 201);
    });
    const count = await request<{ count: number }>(`${es.node.url}/typed/_count`);
    assert.equal(count.body.count, cases.length);
  });

  it('the official client reports the same items', async () => {
    const res = await es.client.bulk<BulkBody>({ refresh: true, body: [{ index: { _index: 'typed' } }, { status: 'abc' }, { index: { _index: 'typed' } }, { status: '12' }] });
    assert.equal(res.body.errors, true);
    assert.equal(res.body.items[0]!.index.error!.type, 'mapper_parsing_exception');
    assert.equal(res.body.items[0]!.index.error!.caused_by!.reason, 'For input string: "abc"');
    assert.equal(res.body.items[1]!.index.status, 201);
  });

  it('an object under a long field names the field and previews the object', async () => {
    const res = await request<BulkBody>(`${es.node.url}/_bulk`, {
      body: ndjson([{ index: { _index: 'typed' } }, { status: { code: 5 } }]),
      headers: { 'content-type': 'application/x-ndjson' },
    });
    const item = res.body.items[0]!.index;
    assert.equal(item.status, 400);
    assert.match(item.error!.reason, /^failed to parse field \[status\] of type \[long\] in document with id '.+'\. Preview of field's value: '\{code=5\}'$/);
    assert.equal(item.error!.index, undefined, 'a document error names no index, as in Elasticsearch');
  });
});

describe('a top-level error with a cause', () => {
  it('keeps caused_by on the error and leaves it out of root_cause, as Elasticsearch does', () => {
    const cause = { type: 'illegal_argument_exception', reason: 'For input string: "abc"' };
    const body = esErrorBody('mapper_parsing_exception', 'failed to parse field [status]', 400, { caused_by: cause });
    assert.deepEqual(body, {
      error: {
        root_cause: [{ type: 'mapper_parsing_exception', reason: 'failed to parse field [status]' }],
        type: 'mapper_parsing_exception',
        reason: 'failed to parse field [status]',
        caused_by: cause,
      },
      status: 400,
    });
  });
});
