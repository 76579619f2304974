import assert from 'node:assert/strict';
import { IndexNotFoundError, InvalidIndexNameError, ResourceExistsError } from '../../../src/common/errors.js';
import type { NewIndex } from '../../../src/metastore/index.js';
import type { DefineTest } from '../dialects.js';

function newIndex(name: string, extra: Partial<NewIndex> = {}): NewIndex {
  return {
    name,
    uuid: `uuid-${name}`,
    createdAtMs: 1_700_000_000_123,
    settings: { number_of_shards: 1, refresh_interval: '1s' },
    mappings: { properties: { message: { type: 'text' } } },
    ...extra,
  };
}

export function indexCases(it: DefineTest): void {
  it('creates, reads and lists indexes', async (ms) => {
    const created = await ms.indexes.createIndex(newIndex('logs-b'));
    await ms.indexes.createIndex(newIndex('logs-a'));
    assert.equal(created.segmentsGeneration, 0);
    const got = await ms.indexes.getIndex('logs-b');
    assert.deepEqual(got, {
      name: 'logs-b',
      uuid: 'uuid-logs-b',
      createdAtMs: 1_700_000_000_123,
      settings: { number_of_shards: 1, refresh_interval: '1s' },
      mappings: { properties: { message: { type: 'text' } } },
      segmentsGeneration: 0,
    });
    assert.equal(await ms.indexes.getIndex('nope'), undefined);
    assert.deepEqual(
      (await ms.indexes.listIndexes()).map((i) => i.name),
      ['logs-a', 'logs-b'],
    );
  });

  it('a duplicate name is ResourceExistsError and changes nothing', async (ms) => {
    await ms.indexes.createIndex(newIndex('dup'));
    await assert.rejects(ms.indexes.createIndex(newIndex('dup', { uuid: 'other', aliases: [{ alias: 'dup-alias' }] })), (err: unknown) => {
      assert.ok(err instanceof ResourceExistsError);
      assert.equal(err.status, 400);
      assert.equal(err.type, 'resource_already_exists_exception');
      assert.match(err.message, /index \[dup\/uuid-dup\] already exists/);
      return true;
    });
    assert.equal((await ms.indexes.getIndex('dup'))?.uuid, 'uuid-dup');
    assert.deepEqual(await ms.aliases.listAliases(), []);
  });

  it('creates an index with its aliases in one step', async (ms) => {
    await ms.indexes.createIndex(
      newIndex('events', { aliases: [{ alias: 'current', isWriteIndex: true }, { alias: 'errors', filter: { term: { level: 'error' } }, routing: '1' }] }),
    );
    assert.deepEqual(await ms.aliases.listAliases(), [
      { alias: 'current', index: 'events', isWriteIndex: true, filter: null, routing: null },
      { alias: 'errors', index: 'events', isWriteIndex: null, filter: { term: { level: 'error' } }, routing: '1' },
    ]);
  });

  it('an index cannot take the name of an alias, nor an alias the name of an index', async (ms) => {
    await ms.indexes.createIndex(newIndex('base', { aliases: [{ alias: 'taken' }] }));
    await assert.rejects(ms.indexes.createIndex(newIndex('taken')), InvalidIndexNameError);
    await assert.rejects(ms.indexes.createIndex(newIndex('other', { aliases: [{ alias: 'base' }] })), /invalid_alias_name|Invalid alias name/);
    // the failed create rolled back entirely
    assert.equal(await ms.indexes.getIndex('other'), undefined);
  });

  it('updates mappings and settings', async (ms) => {
    await ms.indexes.createIndex(newIndex('m'));
    const mappings = { properties: { message: { type: 'text' }, 'host.name': { type: 'keyword' } } };
    await ms.indexes.updateIndexMappings('m', mappings);
    await ms.indexes.updateIndexSettings('m', { number_of_replicas: 0 });
    const got = await ms.indexes.getIndex('m');
    assert.deepEqual(got?.mappings, mappings);
    assert.deepEqual(got?.settings, { number_of_replicas: 0 });
    await assert.rejects(ms.indexes.updateIndexMappings('missing', {}), IndexNotFoundError);
    await assert.rejects(ms.indexes.updateIndexSettings('missing', {}), IndexNotFoundError);
  });

  it('deleting an index removes its aliases and hands its segments to garbage collection', async (ms) => {
    await ms.indexes.createIndex(newIndex('gone', { aliases: [{ alias: 'g' }] }));
    await ms.indexes.createIndex(newIndex('stays', { aliases: [{ alias: 's' }] }));
    const segment = { level: 0, path: 'p', numDocs: 1, minTs: 1, maxTs: 2, maxLid: 1, sizeBytes: 10, createdAtMs: 5 };
    await ms.segments.addSegments('gone', [{ id: 'seg-gone', ...segment }]);
    await ms.segments.addSegments('stays', [{ id: 'seg-stays', ...segment }]);

    await ms.indexes.deleteIndex('gone', 9_000);
    assert.equal(await ms.indexes.getIndex('gone'), undefined);
    assert.deepEqual(
      (await ms.aliases.listAliases()).map((a) => a.alias),
      ['s'],
    );
    assert.deepEqual(
      (await ms.segments.listSegments()).map((s) => s.id),
      ['seg-stays'],
    );
    assert.deepEqual(
      (await ms.segments.listDeletable()).map((s) => [s.id, s.deletedAtMs]),
      [['seg-gone', 9_000]],
    );
    await assert.rejects(ms.indexes.deleteIndex('gone'), IndexNotFoundError);
    // the name is free again
    await ms.indexes.createIndex(newIndex('gone', { uuid: 'second' }));
    assert.deepEqual(await ms.segments.listSegments('gone'), []);
  });

  it('refuses values that the columns cannot hold exactly', async (ms) => {
    await assert.rejects(ms.indexes.createIndex(newIndex('bad', { createdAtMs: 1.5 })), RangeError);
    assert.equal(await ms.indexes.getIndex('bad'), undefined);
  });
}
