import assert from 'node:assert/strict';
import type { DefineTest } from '../dialects.js';

export function kvCases(it: DefineTest): void {
  it('stores JSON values by key', async (ms) => {
    assert.equal(await ms.kv.get('missing'), undefined);
    await ms.kv.put('cluster.persistent', { 'search.max_buckets': 10000, nested: { list: [1, 'two', true] } });
    await ms.kv.put('null-value', null);
    await ms.kv.put('count', 2 ** 40);
    assert.deepEqual(await ms.kv.get('cluster.persistent'), { 'search.max_buckets': 10000, nested: { list: [1, 'two', true] } });
    assert.equal(await ms.kv.get('null-value'), null);
    assert.equal(await ms.kv.get('count'), 2 ** 40);
    await ms.kv.put('count', 'replaced');
    assert.equal(await ms.kv.get('count'), 'replaced');
  });

  it('putIfAbsent lets exactly one of concurrent claimants win', async (ms) => {
    const claims = await Promise.all(Array.from({ length: 5 }, (_, i) => ms.kv.putIfAbsent('bootstrap_consumed', { by: i })));
    assert.equal(claims.filter(Boolean).length, 1);
    const winner = claims.indexOf(true);
    assert.deepEqual(await ms.kv.get('bootstrap_consumed'), { by: winner });
    assert.equal(await ms.kv.putIfAbsent('bootstrap_consumed', { by: 99 }), false);
  });

  it('lists by prefix in key order and deletes', async (ms) => {
    await ms.kv.put('b.two', 2);
    await ms.kv.put('a.one', 1);
    await ms.kv.put('b.Three', 3);
    await ms.kv.put('c', 4);
    assert.deepEqual(await ms.kv.list('b.'), [
      { key: 'b.Three', value: 3 },
      { key: 'b.two', value: 2 },
    ]);
    assert.equal((await ms.kv.list()).length, 4);
    assert.equal(await ms.kv.delete('c'), true);
    assert.equal(await ms.kv.delete('c'), false);
    assert.equal(await ms.kv.get('c'), undefined);
  });

  it('refuses a value with no JSON form', async (ms) => {
    await assert.rejects(ms.kv.put('fn', () => 1), TypeError);
    await assert.rejects(ms.kv.put('undef', undefined), TypeError);
  });
}
