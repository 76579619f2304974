import assert from 'node:assert/strict';
import { NotFoundError, ResourceExistsError } from '../../../src/common/errors.js';
import type { DefineTest } from '../dialects.js';

export function templateCases(it: DefineTest): void {
  it('puts, gets, lists in order of application, and deletes templates', async (ms) => {
    const body = { index_patterns: ['logs-*'], settings: { number_of_shards: 1 }, mappings: { properties: { msg: { type: 'text' } } }, version: 3 };
    await ms.templates.putTemplate({ name: 'late', indexPatterns: ['logs-*'], order: 10, body });
    await ms.templates.putTemplate({ name: 'early', indexPatterns: ['logs-*', 'metrics-*'], order: -1, body: {} });
    await ms.templates.putTemplate({ name: 'default-order', indexPatterns: ['*'], body: {} });

    assert.deepEqual(await ms.templates.getTemplate('late'), { name: 'late', indexPatterns: ['logs-*'], order: 10, body });
    assert.equal(await ms.templates.getTemplate('missing'), undefined);
    assert.deepEqual(
      (await ms.templates.listTemplates()).map((t) => [t.name, t.order]),
      [
        ['early', -1],
        ['default-order', 0],
        ['late', 10],
      ],
    );
    await ms.templates.deleteTemplate('early');
    assert.deepEqual(
      (await ms.templates.listTemplates()).map((t) => t.name),
      ['default-order', 'late'],
    );
  });

  it('put replaces a template unless create is asked for', async (ms) => {
    await ms.templates.putTemplate({ name: 't', indexPatterns: ['a-*'], order: 1, body: { v: 1 } });
    await ms.templates.putTemplate({ name: 't', indexPatterns: ['b-*'], order: 2, body: { v: 2 } });
    assert.deepEqual(await ms.templates.getTemplate('t'), { name: 't', indexPatterns: ['b-*'], order: 2, body: { v: 2 } });
    await assert.rejects(ms.templates.putTemplate({ name: 't', indexPatterns: ['c-*'], body: { v: 3 } }, { create: true }), ResourceExistsError);
    assert.deepEqual((await ms.templates.getTemplate('t'))?.body, { v: 2 });
    await ms.templates.putTemplate({ name: 'fresh', indexPatterns: ['c-*'], body: {} }, { create: true });
    assert.ok(await ms.templates.getTemplate('fresh'));
  });

  it('deleting a missing template is index_template_missing_exception', async (ms) => {
    await assert.rejects(ms.templates.deleteTemplate('nope'), (err: unknown) => {
      assert.ok(err instanceof NotFoundError);
      assert.equal(err.type, 'index_template_missing_exception');
      assert.equal(err.status, 404);
      return true;
    });
  });
}
