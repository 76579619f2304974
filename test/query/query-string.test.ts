import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ParsingError } from '../../src/common/errors.js';
import { parseQueryString, type QueryStringOptions } from '../../src/query/index.js';
import { bool, m } from './helpers.js';

const p = parseQueryString;

function assertSyntaxError(q: string, position: number, what?: RegExp, options: QueryStringOptions = {}): void {
  assert.throws(
    () => p(q, options),
    (e: unknown) => {
      assert.ok(e instanceof ParsingError, `expected ParsingError for [${q}], got ${String(e)}`);
      assert.equal(e.type, 'query_shard_exception');
      assert.equal(e.status, 400);
      assert.deepEqual(e.details, { position });
      assert.ok(e.reason.startsWith(`Failed to parse query [${q}]: `), e.reason);
      assert.ok(e.reason.endsWith(` at position ${position}`), e.reason);
      if (what) assert.match(e.reason, what);
      return true;
    },
  );
}

describe('query string: terms and fields', () => {
  it('empty and blank strings match everything', () => {
    assert.deepEqual(p(''), { kind: 'match_all' });
    assert.deepEqual(p('  \t '), { kind: 'match_all' });
  });

  it('a bare word is a match on the default field', () => {
    assert.deepEqual(p('error'), m('error'));
  });

  it('field:value is a match on that field; field names may hold dots', () => {
    assert.deepEqual(p('level:warn'), m('warn', 'level'));
    assert.deepEqual(p('host.name:web-1'), m('web-1', 'host.name'));
    assert.deepEqual(p('status:500'), m('500', 'status'));
  });

  it('whitespace around the colon is allowed', () => {
    assert.deepEqual(p('level : warn'), m('warn', 'level'));
  });

  it('several default fields become a should over them, with their boosts', () => {
    assert.deepEqual(p('x', { defaultFields: ['title^2', 'body'] }), bool({ should: [{ ...m('x', 'title'), boost: 2 }, m('x', 'body')] }));
  });

  it('the default operator is carried on match queries', () => {
    assert.deepEqual(p('x', { defaultOperator: 'and' }), m('x', '_line', 'and'));
  });

  it('lenient marks match, phrase and range queries', () => {
    assert.deepEqual(p('n:abc', { lenient: true }), { ...m('abc', 'n'), lenient: true });
    assert.deepEqual(p('n:"a b"', { lenient: true }), { kind: 'phrase', field: 'n', text: 'a b', slop: 0, lenient: true });
    assert.deepEqual(p('n:>1', { lenient: true }), { kind: 'range', field: 'n', gt: '1', lenient: true });
  });

  it('unicode words and fields pass through', () => {
    assert.deepEqual(p('日本語'), m('日本語'));
    assert.deepEqual(p('café:crème'), m('crème', 'café'));
    // the ideographic space separates words as in Lucene
    assert.deepEqual(p('a\u3000b'), bool({ should: [m('a'), m('b')] }));
  });

  it('_id is matched as an ids query', () => {
    assert.deepEqual(p('_id:123'), { kind: 'ids', values: ['123'] });
  });
});

describe('query string: phrases', () => {
  it('a quoted string is a phrase with slop 0', () => {
    assert.deepEqual(p('"disk full"'), { kind: 'phrase', field: '_line', text: 'disk full', slop: 0 });
    assert.deepEqual(p('msg:"disk full"'), { kind: 'phrase', field: 'msg', text: 'disk full', slop: 0 });
  });

  it('~N after a phrase is its slop; phrase_slop is the default', () => {
    assert.deepEqual(p('"a b"~3'), { kind: 'phrase', field: '_line', text: 'a b', slop: 3 });
    assert.deepEqual(p('"a b"', { phraseSlop: 2 }), { kind: 'phrase', field: '_line', text: 'a b', slop: 2 });
    assert.deepEqual(p('"a b"~', { phraseSlop: 2 }), { kind: 'phrase', field: '_line', text: 'a b', slop: 2 });
  });

  it('escaped quotes stay inside the phrase', () => {
    assert.deepEqual(p('msg:"say \\"hi\\" now"'), { kind: 'phrase', field: 'msg', text: 'say "hi" now', slop: 0 });
  });

  it('boost and slop may come in either order', () => {
    const expected = { kind: 'phrase', field: '_line', text: 'a b', slop: 1, boost: 2 };
    assert.deepEqual(p('"a b"~1^2'), expected);
    assert.deepEqual(p('"a b"^2~1'), expected);
  });
});

describe('query string: boolean operators', () => {
  it('AND, OR and NOT and their symbols', () => {
    assert.deepEqual(p('a AND b'), bool({ must: [m('a'), m('b')] }));
    assert.deepEqual(p('a && b'), bool({ must: [m('a'), m('b')] }));
    assert.deepEqual(p('a OR b'), bool({ should: [m('a'), m('b')] }));
    assert.deepEqual(p('a || b'), bool({ should: [m('a'), m('b')] }));
    assert.deepEqual(p('a NOT b'), bool({ should: [m('a')], mustNot: [m('b')] }));
    assert.deepEqual(p('a !b'), bool({ should: [m('a')], mustNot: [m('b')] }));
    assert.deepEqual(p('a AND NOT b'), bool({ must: [m('a')], mustNot: [m('b')] }));
  });

  it('operators are upper case only; lower case words are terms', () => {
    assert.deepEqual(p('a and b'), bool({ should: [m('a'), m('and'), m('b')] }));
  });

  it('an operator glued to a word is part of the word (longest match)', () => {
    assert.deepEqual(p('a&&b'), m('a&&b'));
    assert.deepEqual(p('ANDROID'), m('ANDROID'));
  });

  it('+ requires and - prohibits', () => {
    assert.deepEqual(p('+a -b c'), bool({ must: [m('a')], should: [m('c')], mustNot: [m('b')] }));
    assert.deepEqual(p('+a'), bool({ must: [m('a')] }));
    assert.deepEqual(p('-a'), bool({ mustNot: [m('a')] }));
  });

  it('mixing AND and OR with default OR follows Lucene: no precedence, AND binds its neighbours', () => {
    // a AND b OR c → +a +b c
    assert.deepEqual(p('a AND b OR c'), bool({ must: [m('a'), m('b')], should: [m('c')] }));
    // a OR b AND c → a +b +c
    assert.deepEqual(p('a OR b AND c'), bool({ must: [m('b'), m('c')], should: [m('a')] }));
    // a b -c → a b -c
    assert.deepEqual(p('a b -c'), bool({ should: [m('a'), m('b')], mustNot: [m('c')] }));
    // -a AND b: a prohibited clause stays prohibited
    assert.deepEqual(p('-a AND b'), bool({ must: [m('b')], mustNot: [m('a')] }));
  });

  it('mixing with default AND: juxtaposition requires, OR relaxes both sides', () => {
    const and = { defaultOperator: 'and' as const };
    const ma = (t: string) => m(t, '_line', 'and');
    assert.deepEqual(p('a b', and), bool({ must: [ma('a'), ma('b')] }));
    assert.deepEqual(p('a OR b', and), bool({ should: [ma('a'), ma('b')] }));
    assert.deepEqual(p('a OR b c', and), bool({ must: [ma('c')], should: [ma('a'), ma('b')] }));
    assert.deepEqual(p('a b -c', and), bool({ must: [ma('a'), ma('b')], mustNot: [ma('c')] }));
    assert.deepEqual(p('a AND b OR c', and), bool({ must: [ma('a')], should: [ma('b'), ma('c')] }));
  });

  it('NOT at the start is a purely negative query', () => {
    assert.deepEqual(p('NOT error'), bool({ mustNot: [m('error')] }));
  });

  it('double negation through groups', () => {
    assert.deepEqual(p('-(-a)'), bool({ mustNot: [bool({ mustNot: [m('a')] })] }));
    assert.deepEqual(p('NOT (NOT a)'), bool({ mustNot: [bool({ mustNot: [m('a')] })] }));
  });

  it('a lone +, - or ! followed by a space analyzes to nothing and is dropped', () => {
    assert.deepEqual(p('a - b'), bool({ should: [m('a'), m('b')] }));
    assert.deepEqual(p('a + b', { defaultOperator: 'and' }), bool({ must: [m('a', '_line', 'and'), m('b', '_line', 'and')] }));
  });
});

describe('query string: grouping', () => {
  it('parentheses group clauses', () => {
    assert.deepEqual(p('(a OR b) AND c'), bool({ must: [bool({ should: [m('a'), m('b')] }), m('c')] }));
  });

  it('a group of one clause is that clause', () => {
    assert.deepEqual(p('(a)'), m('a'));
    assert.deepEqual(p('((a))'), m('a'));
  });

  it('field grouping applies the field inside', () => {
    assert.deepEqual(p('status:(500 OR 503)'), bool({ should: [m('500', 'status'), m('503', 'status')] }));
    assert.deepEqual(p('msg:(+disk -"is ok")'), bool({ must: [m('disk', 'msg')], mustNot: [{ kind: 'phrase', field: 'msg', text: 'is ok', slop: 0 }] }));
  });

  it('nested groups', () => {
    assert.deepEqual(
      p('a AND (b OR (c AND -d))'),
      bool({ must: [m('a'), bool({ should: [m('b'), bool({ must: [m('c')], mustNot: [m('d')] })] })] }),
    );
  });

  it('a field inside a field group wins', () => {
    assert.deepEqual(p('a:(b c:d)'), bool({ should: [m('b', 'a'), m('d', 'c')] }));
  });
});

describe('query string: ranges', () => {
  it('inclusive, exclusive and mixed brackets keep raw string bounds', () => {
    assert.deepEqual(p('n:[1 TO 5]'), { kind: 'range', field: 'n', gte: '1', lte: '5' });
    assert.deepEqual(p('n:{1 TO 5}'), { kind: 'range', field: 'n', gt: '1', lt: '5' });
    assert.deepEqual(p('n:[1 TO 5}'), { kind: 'range', field: 'n', gte: '1', lt: '5' });
    assert.deepEqual(p('n:{1 TO 5]'), { kind: 'range', field: 'n', gt: '1', lte: '5' });
  });

  it('* is an open end; both open means the field exists', () => {
    assert.deepEqual(p('n:[10 TO *]'), { kind: 'range', field: 'n', gte: '10' });
    assert.deepEqual(p('n:{* TO 10}'), { kind: 'range', field: 'n', lt: '10' });
    assert.deepEqual(p('n:[* TO *]'), { kind: 'exists', field: 'n' });
  });

  it('range values may hold colons, dates and quotes', () => {
    assert.deepEqual(p('_ts:[2024-01-01T00:00:00Z TO now-1h/h]'), {
      kind: 'range',
      field: '_ts',
      gte: '2024-01-01T00:00:00Z',
      lte: 'now-1h/h',
    });
    assert.deepEqual(p('s:["a b" TO "c]"]'), { kind: 'range', field: 's', gte: 'a b', lte: 'c]' });
  });

  it('comparison operators are one-sided ranges', () => {
    assert.deepEqual(p('status:>=500'), { kind: 'range', field: 'status', gte: '500' });
    assert.deepEqual(p('status:>500'), { kind: 'range', field: 'status', gt: '500' });
    assert.deepEqual(p('status:<=500'), { kind: 'range', field: 'status', lte: '500' });
    assert.deepEqual(p('_ts:<2024-01-01'), { kind: 'range', field: '_ts', lt: '2024-01-01' });
    assert.deepEqual(p('age:(>=10 AND <20)'), bool({ must: [{ kind: 'range', field: 'age', gte: '10' }, { kind: 'range', field: 'age', lt: '20' }] }));
  });

  it('a quoted value right after a comparison operator saves escaping colons', () => {
    assert.deepEqual(p('_ts:>="2024-01-01T10:00:00"'), { kind: 'range', field: '_ts', gte: '2024-01-01T10:00:00' });
    assert.deepEqual(p('_ts:>=2024-01-01T10\\:00'), { kind: 'range', field: '_ts', gte: '2024-01-01T10:00' });
  });

  it('a comparison operator alone is a word, an escaped one is literal', () => {
    assert.deepEqual(p('x:>'), m('>', 'x'));
    assert.deepEqual(p('x:\\>5'), m('>5', 'x'));
  });

  it('time_zone is put on every range', () => {
    assert.deepEqual(p('_ts:[now-1d TO now]', { timeZone: '+01:00' }), {
      kind: 'range',
      field: '_ts',
      gte: 'now-1d',
      lte: 'now',
      timeZone: '+01:00',
    });
  });

  it('a boost after a range', () => {
    assert.deepEqual(p('n:[1 TO 2]^3'), { kind: 'range', field: 'n', gte: '1', lte: '2', boost: 3 });
  });
});

describe('query string: wildcards, regexps, exists', () => {
  it('one trailing * is a prefix query', () => {
    assert.deepEqual(p('err*'), { kind: 'prefix', field: '_line', prefix: 'err' });
    assert.deepEqual(p('host:web-*'), { kind: 'prefix', field: 'host', prefix: 'web-' });
  });

  it('other wildcards are wildcard queries', () => {
    assert.deepEqual(p('e?r'), { kind: 'wildcard', field: '_line', pattern: 'e?r' });
    assert.deepEqual(p('e*r*'), { kind: 'wildcard', field: '_line', pattern: 'e*r*' });
    assert.deepEqual(p('*rror'), { kind: 'wildcard', field: '_line', pattern: '*rror' });
  });

  it('leading wildcards can be refused', () => {
    const refuse = { allowLeadingWildcard: false };
    assertSyntaxError('a *rror', 2, /leading wildcard is not allowed/, refuse);
    assertSyntaxError('?rror', 0, /leading wildcard/, refuse);
    assert.deepEqual(p('rr*', refuse), { kind: 'prefix', field: '_line', prefix: 'rr' });
  });

  it('escaped wildcards are literal', () => {
    assert.deepEqual(p('a\\*b'), m('a*b'));
    assert.deepEqual(p('a\\*b*'), { kind: 'prefix', field: '_line', prefix: 'a*b' });
    assert.deepEqual(p('a\\*b?'), { kind: 'wildcard', field: '_line', pattern: 'a\\*b?' });
  });

  it('* alone and *:* match everything; field:* means exists', () => {
    assert.deepEqual(p('*'), { kind: 'match_all' });
    assert.deepEqual(p('*:*'), { kind: 'match_all' });
    assert.deepEqual(p('host:*'), { kind: 'exists', field: 'host' });
    assert.deepEqual(p('a AND *'), bool({ must: [m('a'), { kind: 'match_all' }] }));
  });

  it('_exists_:field', () => {
    assert.deepEqual(p('_exists_:host.name'), { kind: 'exists', field: 'host.name' });
    assert.deepEqual(p('NOT _exists_:user'), bool({ mustNot: [{ kind: 'exists', field: 'user' }] }));
  });

  it('/regex/ is a regexp query, /regex/i case-insensitive', () => {
    assert.deepEqual(p('/ab+c/'), { kind: 'regexp', field: '_line', pattern: 'ab+c' });
    assert.deepEqual(p('path:/\\/var\\/log.*/'), { kind: 'regexp', field: 'path', pattern: '\\/var\\/log.*' });
    assert.deepEqual(p('/ab/i'), { kind: 'regexp', field: '_line', pattern: 'ab', caseInsensitive: true });
  });

  it('fuzzy queries are refused with a clear error', () => {
    assertSyntaxError('quikc~', 5, /fuzzy queries are not supported/);
    assertSyntaxError('a quikc~2', 7, /fuzzy/);
  });
});

describe('query string: boosts and escapes', () => {
  it('^N boosts a term or a group', () => {
    assert.deepEqual(p('a^2'), { ...m('a'), boost: 2 });
    assert.deepEqual(p('a^0.5 b'), bool({ should: [{ ...m('a'), boost: 0.5 }, m('b')] }));
    assert.deepEqual(p('(a b)^3'), bool({ should: [m('a'), m('b')] }, { boost: 3 }));
  });

  it('a term boost multiplies a field boost', () => {
    assert.deepEqual(p('a^3', { defaultFields: ['t^2'] }), { ...m('a', 't'), boost: 6 });
  });

  it('every reserved character can be escaped', () => {
    const reserved = '+-=&|><!(){}[]^"~*?:\\/';
    for (const c of reserved) {
      assert.deepEqual(p(`a\\${c}b`), m(`a${c}b`), `escaped [${c}]`);
    }
  });

  it('escaped colons do not start a field, escaped spaces join words', () => {
    assert.deepEqual(p('10\\:30\\:00'), m('10:30:00'));
    assert.deepEqual(p('a\\:b:c'), m('c', 'a:b'));
    assert.deepEqual(p('a\\ b'), m('a b'));
  });

  it('\\uXXXX escapes', () => {
    assert.deepEqual(p('caf\\u00e9'), m('café'));
  });
});

describe('query string: syntax errors name the position', () => {
  it('unbalanced parentheses', () => {
    assertSyntaxError('(a OR b', 0, /missing closing parenthesis/);
    assertSyntaxError('a AND (b OR (c)', 6, /missing closing parenthesis/);
    assertSyntaxError('a)', 1, /unexpected \[\)\]/);
    assertSyntaxError('()', 1);
  });

  it('unbalanced quotes', () => {
    assertSyntaxError('msg:"disk full', 4, /unclosed quote/);
    assertSyntaxError('a "b\\"', 2, /unclosed quote/);
  });

  it('operators with nothing after them', () => {
    assertSyntaxError('a AND', 5, /unexpected end of query/);
    assertSyntaxError('a OR', 4);
    assertSyntaxError('a ||', 4);
    assertSyntaxError('a NOT', 5);
    assertSyntaxError('a -', 3);
    assertSyntaxError('a +', 3);
    assertSyntaxError('!', 1);
  });

  it('operators where a clause is expected', () => {
    assertSyntaxError('AND a', 0, /unexpected \[AND\]/);
    assertSyntaxError('a AND OR b', 6, /unexpected \[OR\]/);
    assertSyntaxError('NOT NOT a', 4, /unexpected \[NOT\]/);
  });

  it('a field with nothing after it', () => {
    assertSyntaxError('status:', 7, /missing value for field \[status\]/);
    assertSyntaxError('status: AND a', 8, /missing value for field/);
  });

  it('a:b:c', () => {
    assertSyntaxError('a:b:c', 3, /unexpected \[:\]/);
  });

  it('broken ranges', () => {
    assertSyntaxError('n:[1 TO]', 7, /missing upper bound/);
    assertSyntaxError('n:[1 TO 5', 2, /missing closing bracket/);
    assertSyntaxError('n:[1 5]', 5, /expected \[TO\]/);
    assertSyntaxError('n:[1 TO 5 6]', 10, /unexpected \[6\] in range/);
  });

  it('other lexical errors', () => {
    assertSyntaxError('a^', 2, /expected a number after \[\^\]/);
    assertSyntaxError('a^x', 2);
    assertSyntaxError('a\\', 1, /escape character at end/);
    assertSyntaxError('/abc', 0, /unclosed regular expression/);
    assertSyntaxError('a ]', 2, /unexpected character \[\]\]/);
  });

  it('positions count UTF-16 units from 0', () => {
    assertSyntaxError('é AND', 5);
  });
});

describe('query string: limits', () => {
  it('deeply nested groups fail cleanly instead of exhausting the stack', () => {
    assert.deepEqual(p('('.repeat(200) + 'a' + ')'.repeat(200)), m('a'));
    assertSyntaxError('('.repeat(5000) + 'a' + ')'.repeat(5000), 256, /nested groups/);
  });
});
