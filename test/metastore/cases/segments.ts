import assert from 'node:assert/strict';
import { ConflictError, IndexNotFoundError, ResourceExistsError } from '../../../src/common/errors.js';
import type { Metastore, NewSegment } from '../../../src/metastore/index.js';
import type { DefineTest } from '../dialects.js';

function seg(id: string, createdAtMs: number, extra: Partial<NewSegment> = {}): NewSegment {
  return {
    id,
    level: 0,
    path: `indexes/u1/${id}.seg`,
    numDocs: 1000,
    minTs: 1_700_000_000_000,
    maxTs: 1_700_000_999_999,
    maxLid: 123_456,
    sizeBytes: 5 * 1024 * 1024 * 1024,
    createdAtMs,
    ...extra,
  };
}

async function withIndexes(ms: Metastore, ...names: string[]): Promise<void> {
  for (const name of names) {
    await ms.indexes.createIndex({ name, uuid: `u-${name}`, createdAtMs: 1, settings: {}, mappings: {} });
  }
}

const ids = (rows: Array<{ id: string }>): string[] => rows.map((r) => r.id);

export function segmentCases(it: DefineTest): void {
  it('adds and lists segments with every field intact', async (ms) => {
    await withIndexes(ms, 'a', 'b');
    await ms.segments.addSegments('a', [seg('a2', 20), seg('a1', 10, { level: 2, maxLid: 2 ** 40 })]);
    await ms.segments.addSegments('b', [seg('b1', 5)]);
    assert.deepEqual(await ms.segments.listSegments('a'), [
      { index: 'a', ...seg('a1', 10, { level: 2, maxLid: 2 ** 40 }) },
      { index: 'a', ...seg('a2', 20) },
    ]);
    assert.deepEqual(ids(await ms.segments.listSegments()), ['a1', 'a2', 'b1']);
    assert.equal((await ms.indexes.getIndex('a'))?.segmentsGeneration, 1);
  });

  it('adding to a missing index or reusing an id fails without a partial commit', async (ms) => {
    await withIndexes(ms, 'a');
    await assert.rejects(ms.segments.addSegments('missing', [seg('x', 1)]), IndexNotFoundError);
    await ms.segments.addSegments('a', [seg('s1', 1)]);
    await assert.rejects(ms.segments.addSegments('a', [seg('s2', 2), seg('s1', 3)]), ResourceExistsError);
    assert.deepEqual(ids(await ms.segments.listSegments('a')), ['s1']);
  });

  it('refuses an empty segment whose time bounds are infinite', async (ms) => {
    await withIndexes(ms, 'a');
    await assert.rejects(ms.segments.addSegments('a', [seg('e', 1, { minTs: Infinity, maxTs: -Infinity })]), RangeError);
  });

  it('replaceSegments swaps segments atomically', async (ms) => {
    await withIndexes(ms, 'a');
    await ms.segments.addSegments('a', [seg('s1', 1), seg('s2', 2), seg('s3', 3)]);
    await ms.segments.replaceSegments('a', ['s1', 's2'], [seg('m1', 4, { level: 1 })], 777);
    assert.deepEqual(ids(await ms.segments.listSegments('a')), ['s3', 'm1']);
    const deletable = await ms.segments.listDeletable();
    assert.deepEqual(
      deletable.map((d) => [d.id, d.index, d.deletedAtMs]),
      [
        ['s1', 'a', 777],
        ['s2', 'a', 777],
      ],
    );
    assert.equal((await ms.indexes.getIndex('a'))?.segmentsGeneration, 2);
  });

  it('replacing a segment that is no longer live is a conflict and changes nothing', async (ms) => {
    await withIndexes(ms, 'a', 'b');
    await ms.segments.addSegments('a', [seg('s1', 1), seg('s2', 2)]);
    await ms.segments.addSegments('b', [seg('b1', 1)]);
    await ms.segments.replaceSegments('a', ['s1'], [seg('m1', 3)]);

    await assert.rejects(ms.segments.replaceSegments('a', ['s1', 's2'], [seg('m2', 4)]), (err: unknown) => {
      assert.ok(err instanceof ConflictError);
      assert.equal(err.status, 409);
      return true;
    });
    // a segment of another index is not live in this one
    await assert.rejects(ms.segments.replaceSegments('a', ['b1'], [seg('m3', 5)]), ConflictError);
    await assert.rejects(ms.segments.replaceSegments('a', ['unknown'], []), ConflictError);
    await assert.rejects(ms.segments.replaceSegments('gone', ['s2'], []), IndexNotFoundError);

    assert.deepEqual(ids(await ms.segments.listSegments('a')), ['s2', 'm1']);
    assert.deepEqual(ids(await ms.segments.listSegments('b')), ['b1']);
    assert.deepEqual(ids(await ms.segments.listDeletable()), ['s1']);
  });

  it('of two concurrent compactions of the same segments exactly one wins', async (ms) => {
    await withIndexes(ms, 'a');
    await ms.segments.addSegments('a', [seg('s1', 1), seg('s2', 2)]);
    const outcomes = await Promise.allSettled([
      ms.segments.replaceSegments('a', ['s1', 's2'], [seg('left', 3)]),
      ms.segments.replaceSegments('a', ['s2', 's1'], [seg('right', 3)]),
    ]);
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    assert.equal(won.length, 1);
    assert.equal(lost.length, 1);
    assert.ok(lost[0]!.reason instanceof ConflictError, String(lost[0]!.reason));
    const live = ids(await ms.segments.listSegments('a'));
    assert.equal(live.length, 1);
    assert.ok(live[0] === 'left' || live[0] === 'right');
  });

  it('garbage collection: mark, list by age, purge only deleted rows', async (ms) => {
    await withIndexes(ms, 'a');
    await ms.segments.addSegments('a', [seg('s1', 1), seg('s2', 2), seg('s3', 3)]);
    assert.equal(await ms.segments.markSegmentsDeleted(['s1'], 100), 1);
    assert.equal(await ms.segments.markSegmentsDeleted(['s2', 's1', 'nope'], 200), 1);
    assert.deepEqual(ids(await ms.segments.listDeletable()), ['s1', 's2']);
    assert.deepEqual(ids(await ms.segments.listDeletable({ deletedBeforeMs: 150 })), ['s1']);
    // s3 is live: purging must not drop it
    assert.equal(await ms.segments.purgeSegments(['s1', 's3']), 1);
    assert.deepEqual(ids(await ms.segments.listDeletable()), ['s2']);
    assert.deepEqual(ids(await ms.segments.listSegments('a')), ['s3']);
    assert.equal(await ms.segments.markSegmentsDeleted([]), 0);
    assert.equal(await ms.segments.purgeSegments([]), 0);
  });

  it('a delete update naming a segment that is no longer live is refused whole', async (ms) => {
    await withIndexes(ms, 'a');
    await ms.segments.addSegments('a', [seg('s1', 1), seg('s2', 2)]);
    await ms.segments.replaceSegments('a', ['s1'], [seg('m1', 3, { level: 1 })]);
    await assert.rejects(
      ms.segments.updateDeletedLids('a', [
        { segmentId: 's2', deletedLids: [7] },
        { segmentId: 's1', deletedLids: [5] },
      ]),
      ConflictError,
    );
    assert.equal((await ms.segments.listSegments('a')).find((r) => r.id === 's2')?.deletedLids, undefined, 'nothing of the refused update is written');
  });

  it('commitMerge carries the deletes recorded on its inputs, less those the merged file left out', async (ms) => {
    await withIndexes(ms, 'a');
    await ms.segments.addSegments('a', [seg('s1', 1, { deletedLids: [1, 4] }), seg('s2', 2), seg('s3', 3)]);
    // recorded while the merge ran: after it read its inputs
    await ms.segments.updateDeletedLids('a', [
      { segmentId: 's1', deletedLids: [1, 4, 9] },
      { segmentId: 's2', deletedLids: [12] },
    ]);
    const merged = await ms.segments.commitMerge('a', ['s1', 's2'], seg('m1', 4, { level: 1 }), [1, 4], 500);
    assert.deepEqual(merged.deletedLids, [9, 12]);
    assert.equal(merged.index, 'a');
    const live = await ms.segments.listSegments('a');
    assert.deepEqual(ids(live), ['s3', 'm1']);
    assert.deepEqual(live.find((r) => r.id === 'm1')?.deletedLids, [9, 12]);
    assert.deepEqual(ids(await ms.segments.listDeletable({ deletedBeforeMs: 501 })), ['s1', 's2']);
    // the same inputs again (a second merge of them): refused, nothing written
    await assert.rejects(ms.segments.commitMerge('a', ['s1', 's3'], seg('m2', 5, { level: 1 }), []), ConflictError);
    assert.deepEqual(ids(await ms.segments.listSegments('a')), ['s3', 'm1']);
  });

  it('commits many segments in one call', async (ms) => {
    await withIndexes(ms, 'a');
    const many = Array.from({ length: 1200 }, (_, i) => seg(`s${String(i).padStart(5, '0')}`, i));
    await ms.segments.addSegments('a', many);
    assert.equal((await ms.segments.listSegments('a')).length, 1200);
  });
}
