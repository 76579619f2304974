import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BadRequestError, CorruptionError, ObjectNotFoundError, SvcError, fromThreadError, toThreadError } from '../../src/common/index.js';

/** what the receiving thread gets: the description after a structured clone */
function across(err: unknown): Error {
  return fromThreadError(structuredClone(toThreadError(err)));
}

describe('errors across threads', () => {
  it('come back in their own class with their fields', () => {
    const corrupt = across(new CorruptionError('/data/a.seg', 'footer checksum mismatch'));
    assert.ok(corrupt instanceof CorruptionError);
    assert.ok(corrupt instanceof SvcError);
    assert.equal(corrupt.name, 'CorruptionError');
    assert.equal(corrupt.type, 'corrupt_index_exception');
    assert.equal(corrupt.status, 500);
    assert.equal(corrupt.reason, 'corrupt file [/data/a.seg]: footer checksum mismatch');
    assert.deepEqual(corrupt.details, { file: '/data/a.seg' });
    assert.match(corrupt.stack ?? '', /CorruptionError/);

    const missing = across(new ObjectNotFoundError('indexes/x/y.seg'));
    assert.ok(missing instanceof ObjectNotFoundError);
    assert.equal(missing.key, 'indexes/x/y.seg');
    assert.equal(missing.status, 404);

    const bad = across(new BadRequestError('no', 'parsing_exception', { line: 3 }));
    assert.ok(bad instanceof BadRequestError);
    assert.deepEqual([bad.type, bad.details], ['parsing_exception', { line: 3 }]);
  });

  it('keep built-in classes and system error codes; anything else becomes an Error', () => {
    const range = across(new RangeError('offset out of range'));
    assert.ok(range instanceof RangeError);
    assert.equal(range.message, 'offset out of range');

    const sys = Object.assign(new Error("ENOENT: no such file or directory, open '/x'"), { code: 'ENOENT', errno: -2, syscall: 'open', path: '/x' });
    const back = across(sys) as NodeJS.ErrnoException;
    assert.equal(back.code, 'ENOENT');
    assert.equal(back.path, '/x');

    class Odd extends Error {
      readonly fn = () => 1;
    }
    const odd = across(new Odd('strange'));
    assert.equal(odd.constructor, Error);
    assert.equal(odd.message, 'strange');
    assert.equal((odd as Error & { fn?: unknown }).fn, undefined, 'a field that cannot be cloned stays behind');
    assert.equal(across('a string').message, 'a string');
  });
});
