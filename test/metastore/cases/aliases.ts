import assert from 'node:assert/strict';
import { BadRequestError, IndexNotFoundError, NotFoundError } from '../../../src/common/errors.js';
import type { Metastore } from '../../../src/metastore/index.js';
import type { DefineTest } from '../dialects.js';

async function withIndexes(ms: Metastore, ...names: string[]): Promise<void> {
  for (const name of names) {
    await ms.indexes.createIndex({ name, uuid: `u-${name}`, createdAtMs: 1, settings: {}, mappings: {} });
  }
}

const pairs = async (ms: Metastore): Promise<string[]> => (await ms.aliases.listAliases()).map((a) => `${a.alias}->${a.index}`);

export function aliasCases(it: DefineTest): void {
  it('adds and removes aliases, with filter, routing and write index', async (ms) => {
    await withIndexes(ms, 'logs-1', 'logs-2');
    await ms.aliases.setAliases([
      { type: 'add', index: 'logs-1', alias: 'logs' },
      { type: 'add', index: 'logs-2', alias: 'logs', isWriteIndex: true },
      { type: 'add', index: 'logs-2', alias: 'errors', filter: { term: { level: 'error' } }, routing: 'r1' },
    ]);
    assert.deepEqual(await ms.aliases.listAliases({ alias: 'logs' }), [
      { alias: 'logs', index: 'logs-1', isWriteIndex: null, filter: null, routing: null },
      { alias: 'logs', index: 'logs-2', isWriteIndex: true, filter: null, routing: null },
    ]);
    assert.deepEqual(await ms.aliases.listAliases({ index: 'logs-2', alias: 'errors' }), [
      { alias: 'errors', index: 'logs-2', isWriteIndex: null, filter: { term: { level: 'error' } }, routing: 'r1' },
    ]);
    await ms.aliases.setAliases([{ type: 'remove', index: 'logs-1', alias: 'logs' }]);
    assert.deepEqual(await pairs(ms), ['errors->logs-2', 'logs->logs-2']);
  });

  it('adding an alias that exists replaces its properties', async (ms) => {
    await withIndexes(ms, 'a');
    await ms.aliases.setAliases([{ type: 'add', index: 'a', alias: 'x', filter: { match_all: {} }, routing: '1' }]);
    await ms.aliases.setAliases([{ type: 'add', index: 'a', alias: 'x', isWriteIndex: false }]);
    assert.deepEqual(await ms.aliases.listAliases(), [{ alias: 'x', index: 'a', isWriteIndex: false, filter: null, routing: null }]);
  });

  it('a failing action undoes the actions before it', async (ms) => {
    await withIndexes(ms, 'a');
    await ms.aliases.setAliases([{ type: 'add', index: 'a', alias: 'keep' }]);
    await assert.rejects(
      ms.aliases.setAliases([
        { type: 'remove', index: 'a', alias: 'keep' },
        { type: 'add', index: 'a', alias: 'new' },
        { type: 'add', index: 'missing', alias: 'new' },
      ]),
      IndexNotFoundError,
    );
    assert.deepEqual(await pairs(ms), ['keep->a']);
  });

  it('removing a missing alias is aliases_not_found_exception unless allowed', async (ms) => {
    await withIndexes(ms, 'a');
    await assert.rejects(ms.aliases.setAliases([{ type: 'remove', index: 'a', alias: 'none' }]), (err: unknown) => {
      assert.ok(err instanceof NotFoundError);
      assert.equal(err.status, 404);
      assert.equal(err.type, 'aliases_not_found_exception');
      assert.equal(err.message, 'aliases [none] missing');
      return true;
    });
    await ms.aliases.setAliases([{ type: 'remove', index: 'a', alias: 'none', mustExist: false }]);
  });

  it('an alias cannot be named like an index', async (ms) => {
    await withIndexes(ms, 'a', 'b');
    await assert.rejects(ms.aliases.setAliases([{ type: 'add', index: 'a', alias: 'b' }]), (err: unknown) => {
      assert.ok(err instanceof BadRequestError);
      assert.equal(err.type, 'invalid_alias_name_exception');
      return true;
    });
    await assert.rejects(ms.aliases.setAliases([{ type: 'add', index: 'a', alias: 'a' }]), BadRequestError);
    assert.deepEqual(await pairs(ms), []);
  });

  it('an alias has at most one write index, and it can move in one call', async (ms) => {
    await withIndexes(ms, 'old', 'new');
    await ms.aliases.setAliases([{ type: 'add', index: 'old', alias: 'w', isWriteIndex: true }]);
    await assert.rejects(ms.aliases.setAliases([{ type: 'add', index: 'new', alias: 'w', isWriteIndex: true }]), (err: unknown) => {
      assert.ok(err instanceof BadRequestError);
      assert.equal(err.type, 'illegal_state_exception');
      assert.match(err.message, /alias \[w\] has more than one write index \[new,old\]/);
      return true;
    });
    await ms.aliases.setAliases([
      { type: 'add', index: 'old', alias: 'w', isWriteIndex: false },
      { type: 'add', index: 'new', alias: 'w', isWriteIndex: true },
    ]);
    const rows = await ms.aliases.listAliases({ alias: 'w' });
    assert.deepEqual(
      rows.map((r) => [r.index, r.isWriteIndex]),
      [
        ['new', true],
        ['old', false],
      ],
    );
  });
}
