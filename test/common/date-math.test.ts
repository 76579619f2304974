import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BadRequestError } from '../../src/common/errors.js';
import { isValidTimeZone, parseDateMath, parseDateValue } from '../../src/common/date-math.js';

const NOW = Date.parse('2024-03-15T10:37:42.123Z'); // a Friday
const iso = (s: string) => Date.parse(s);

function dm(expr: string | number, roundUp = false, extra: { timeZone?: string; format?: string } = {}): string {
  return new Date(parseDateMath(expr, { nowMs: NOW, roundUp, ...extra })).toISOString();
}

describe('date math: base values', () => {
  it('epoch numbers and numeric strings are milliseconds', () => {
    assert.equal(parseDateMath(1704067200000, { nowMs: NOW, roundUp: false }), 1704067200000);
    assert.equal(parseDateMath('1704067200000', { nowMs: NOW, roundUp: true }), 1704067200000);
    assert.equal(parseDateMath('-1000', { nowMs: NOW, roundUp: false }), -1000);
  });

  it('format epoch_second reads numbers as seconds', () => {
    assert.equal(parseDateMath(1704067200, { nowMs: NOW, roundUp: false, format: 'epoch_second' }), 1704067200000);
    assert.equal(parseDateMath('1704067200.5', { nowMs: NOW, roundUp: false, format: 'epoch_second||strict_date_optional_time' }), 1704067200500);
    assert.equal(parseDateMath(1704067200, { nowMs: NOW, roundUp: false, format: 'epoch_millis||epoch_second' }), 1704067200);
  });

  it('ISO dates and date-times with and without zone', () => {
    assert.equal(dm('2024-01-01'), '2024-01-01T00:00:00.000Z');
    assert.equal(dm('2024-01-01T10:00'), '2024-01-01T10:00:00.000Z');
    assert.equal(dm('2024-01-01T10:00:00.123Z'), '2024-01-01T10:00:00.123Z');
    assert.equal(dm('2024-01-01T10:00:00.123456789Z'), '2024-01-01T10:00:00.123Z');
    assert.equal(dm('2024-01-01T10:00:00+01:00'), '2024-01-01T09:00:00.000Z');
    assert.equal(dm('2024-01-01T10:00:00-0530'), '2024-01-01T15:30:00.000Z');
    assert.equal(dm('2024-01-01 10:00:00'), '2024-01-01T10:00:00.000Z');
    assert.equal(dm('2024-06'), '2024-06-01T00:00:00.000Z');
    assert.equal(dm('2024'), '1970-01-01T00:00:02.024Z');
  });

  it('now', () => {
    assert.equal(parseDateMath('now', { nowMs: NOW, roundUp: true }), NOW);
  });
});

describe('date math: arithmetic and rounding', () => {
  it('adds and subtracts every unit', () => {
    assert.equal(dm('now+1y'), '2025-03-15T10:37:42.123Z');
    assert.equal(dm('now-1M'), '2024-02-15T10:37:42.123Z');
    assert.equal(dm('now+2w'), '2024-03-29T10:37:42.123Z');
    assert.equal(dm('now-1d'), '2024-03-14T10:37:42.123Z');
    assert.equal(dm('now-3h'), '2024-03-15T07:37:42.123Z');
    assert.equal(dm('now-3H'), '2024-03-15T07:37:42.123Z');
    assert.equal(dm('now-15m'), '2024-03-15T10:22:42.123Z');
    assert.equal(dm('now+30s'), '2024-03-15T10:38:12.123Z');
    assert.equal(dm('now+1d-1h'), '2024-03-16T09:37:42.123Z');
  });

  it('months clamp to the end of a shorter month', () => {
    assert.equal(dm('2024-01-31||+1M'), '2024-02-29T00:00:00.000Z');
    assert.equal(dm('2023-03-31||-1M'), '2023-02-28T00:00:00.000Z');
  });

  it('rounds down without roundUp (gte, lt)', () => {
    assert.equal(dm('now/y'), '2024-01-01T00:00:00.000Z');
    assert.equal(dm('now/M'), '2024-03-01T00:00:00.000Z');
    assert.equal(dm('now/w'), '2024-03-11T00:00:00.000Z');
    assert.equal(dm('now/d'), '2024-03-15T00:00:00.000Z');
    assert.equal(dm('now/h'), '2024-03-15T10:00:00.000Z');
    assert.equal(dm('now-15m/m'), '2024-03-15T10:22:00.000Z');
    assert.equal(dm('now/s'), '2024-03-15T10:37:42.000Z');
  });

  it('rounds up to the last millisecond with roundUp (gt, lte)', () => {
    assert.equal(dm('now/y', true), '2024-12-31T23:59:59.999Z');
    assert.equal(dm('now/M', true), '2024-03-31T23:59:59.999Z');
    assert.equal(dm('now/w', true), '2024-03-17T23:59:59.999Z');
    assert.equal(dm('now/d', true), '2024-03-15T23:59:59.999Z');
    assert.equal(dm('now-15m/m', true), '2024-03-15T10:22:59.999Z');
  });

  it('anchored dates with ||', () => {
    assert.equal(dm('2024-01-01||+1M/d'), '2024-02-01T00:00:00.000Z');
    assert.equal(dm('2024-01-01||+1M/d', true), '2024-02-01T23:59:59.999Z');
    assert.equal(dm('1704067200000||+1d'), '2024-01-02T00:00:00.000Z');
    assert.equal(dm('2024-01-01T10:00:00Z||'), '2024-01-01T10:00:00.000Z');
  });

  it('a date without its time parts takes their end when rounding up, as for lte', () => {
    assert.equal(dm('2024-01-01', true), '2024-01-01T23:59:59.999Z');
    assert.equal(dm('2024-01-01T10', true), '2024-01-01T10:59:59.999Z');
    assert.equal(dm('2024-01-01T10:00', true), '2024-01-01T10:00:59.999Z');
    assert.equal(dm('2024-01-01T10:00:00', true), '2024-01-01T10:00:00.999Z');
    assert.equal(dm('2024-01-01T10:00:00.5', true), '2024-01-01T10:00:00.500Z');
    // before || the base is never rounded up
    assert.equal(dm('2024-01-01||+1d', true), '2024-01-02T00:00:00.000Z');
  });
});

describe('date math: time zones', () => {
  it('a fixed offset applies to dates without a zone and to rounding', () => {
    assert.equal(dm('2024-01-01', false, { timeZone: '+01:00' }), '2023-12-31T23:00:00.000Z');
    assert.equal(dm('2024-01-01T00:00:00Z', false, { timeZone: '+01:00' }), '2024-01-01T00:00:00.000Z');
    assert.equal(dm('now/d', false, { timeZone: '-05:30' }), '2024-03-15T05:30:00.000Z');
    assert.equal(dm('now/d', true, { timeZone: 'Z' }), '2024-03-15T23:59:59.999Z');
  });

  it('IANA zones, including days with a daylight-saving change', () => {
    assert.equal(dm('2024-01-01', false, { timeZone: 'Europe/Paris' }), '2023-12-31T23:00:00.000Z');
    assert.equal(dm('2024-07-01', false, { timeZone: 'Europe/Paris' }), '2024-06-30T22:00:00.000Z');
    assert.equal(dm('now/d', false, { timeZone: 'America/New_York' }), '2024-03-15T04:00:00.000Z');
    // 2024-03-31 in Paris has 23 hours; adding a day keeps the wall-clock time
    assert.equal(dm('2024-03-30T12:00||+1d', false, { timeZone: 'Europe/Paris' }), '2024-03-31T10:00:00.000Z');
    assert.equal(dm('2024-03-31T12:00||/d', true, { timeZone: 'Europe/Paris' }), '2024-03-31T21:59:59.999Z');
    // 02:30 does not exist that night: it moves forward by the gap
    assert.equal(dm('2024-03-31T02:30', false, { timeZone: 'Europe/Paris' }), '2024-03-31T01:30:00.000Z');
    // 02:30 happens twice on 2024-10-27: the earlier one
    assert.equal(dm('2024-10-27T02:30', false, { timeZone: 'Europe/Paris' }), '2024-10-27T00:30:00.000Z');
  });

  it('zone names are validated', () => {
    assert.ok(isValidTimeZone('Asia/Kolkata'));
    assert.ok(isValidTimeZone('+05:30'));
    assert.ok(isValidTimeZone('UTC'));
    assert.ok(!isValidTimeZone('Mars/Olympus'));
    assert.ok(!isValidTimeZone('+25:00'));
    assert.throws(() => parseDateMath('now', { nowMs: NOW, roundUp: false, timeZone: 'Mars/Olympus' }), BadRequestError);
  });
});

describe('date math: errors', () => {
  it('invalid input is a parse_exception naming the value', () => {
    for (const bad of ['yesterday', 'now-1x', 'now+', 'now-5', '2024-13-01', '2024-02-30', '2024-01-01T25:00', 'now/2d', 'now*2', '', '2024-01-01||foo']) {
      assert.throws(
        () => parseDateMath(bad, { nowMs: NOW, roundUp: false }),
        (e: unknown) =>
          e instanceof BadRequestError && e.type === 'parse_exception' && e.status === 400 && e.reason === `failed to parse date field [${bad}]`,
        bad,
      );
    }
  });

  it('the cause is kept', () => {
    try {
      parseDateMath('now-1x', { nowMs: NOW, roundUp: false });
      assert.fail('no error');
    } catch (e) {
      assert.ok(e instanceof BadRequestError);
      assert.deepEqual(e.details, { caused_by: { type: 'illegal_argument_exception', reason: 'unit [x] not supported for date math [-1x]' } });
    }
  });

  it('non-finite numbers are refused', () => {
    assert.throws(() => parseDateMath(Number.NaN, { nowMs: NOW, roundUp: false }), BadRequestError);
    assert.throws(() => parseDateMath(1e20, { nowMs: NOW, roundUp: false }), BadRequestError);
  });
});

describe('parseDateValue', () => {
  it('reads epoch milliseconds and ISO strings', () => {
    assert.equal(parseDateValue(1704067200000), 1704067200000);
    assert.equal(parseDateValue(1704067200000.7), 1704067200000);
    assert.equal(parseDateValue('1704067200000'), 1704067200000);
    assert.equal(parseDateValue('2024-01-01T10:00:00Z'), iso('2024-01-01T10:00:00Z'));
    assert.equal(parseDateValue('2024-01-01T10:00:00+02:00'), iso('2024-01-01T08:00:00Z'));
    assert.equal(parseDateValue('2024-01-01'), iso('2024-01-01T00:00:00Z'));
  });

  it('anything else is null', () => {
    for (const v of [null, undefined, true, {}, [], 'now', 'soon', '2024-02-30', Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.equal(parseDateValue(v), null, String(v));
    }
  });
});
