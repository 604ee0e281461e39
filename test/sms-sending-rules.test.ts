import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SegmentedMessage } from 'sms-segments-calculator';
import { fieldsOf, longestFill, personalise } from '../src/modules/sms/personalise.ts';
import { isQuiet, nextQuietEnd } from '../src/modules/sms/quiet-hours.ts';
import { verdictOf } from '../src/modules/sms/sending.ts';
import { measure } from '../src/modules/sms/text.ts';
import type { AppError } from '../src/platform/errors.ts';

const QUIET = { start: '21:00', end: '08:00' };
const at = (iso: string) => new Date(iso);

describe('quiet hours in the subscriber’s own zone', () => {
  it('is quiet from 21:00 to 08:00 local, across midnight', () => {
    // Paris is UTC+1 in November.
    assert.equal(isQuiet(at('2026-11-02T19:59:00Z'), 'Europe/Paris', QUIET), false, '20:59');
    assert.equal(isQuiet(at('2026-11-02T20:00:00Z'), 'Europe/Paris', QUIET), true, '21:00');
    assert.equal(isQuiet(at('2026-11-02T23:30:00Z'), 'Europe/Paris', QUIET), true, '00:30');
    assert.equal(isQuiet(at('2026-11-03T06:59:00Z'), 'Europe/Paris', QUIET), true, '07:59');
    assert.equal(isQuiet(at('2026-11-03T07:00:00Z'), 'Europe/Paris', QUIET), false, '08:00');
  });

  it('ends at 08:00 local the next morning, or the same morning after midnight', () => {
    assert.equal(
      nextQuietEnd(at('2026-11-02T21:30:00Z'), 'Europe/Paris', QUIET).toISOString(),
      '2026-11-03T07:00:00.000Z',
    );
    assert.equal(
      nextQuietEnd(at('2026-11-03T01:00:00Z'), 'Europe/Paris', QUIET).toISOString(),
      '2026-11-03T07:00:00.000Z',
    );
    assert.equal(
      nextQuietEnd(at('2026-11-02T09:30:00Z'), 'Pacific/Pago_Pago', {
        start: '20:00',
        end: '09:30',
      }).toISOString(),
      '2026-11-02T20:30:00.000Z',
    );
  });

  it('counts summer time changes in the night', () => {
    // Paris, 24 October 2026 22:30 CEST (UTC+2); the clocks go back at 03:00: 08:00 is CET (UTC+1).
    assert.equal(
      nextQuietEnd(at('2026-10-24T20:30:00Z'), 'Europe/Paris', QUIET).toISOString(),
      '2026-10-25T07:00:00.000Z',
    );
    // New York, 7 March 2026 22:30 EST (UTC-5); the clocks go forward at 02:00: 08:00 is EDT (UTC-4).
    assert.equal(
      nextQuietEnd(at('2026-03-08T03:30:00Z'), 'America/New_York', QUIET).toISOString(),
      '2026-03-08T12:00:00.000Z',
    );
  });
});

describe('what a claimed recipient gets at the moment of sending', () => {
  const rules = { quiet: QUIET, capPerDay: 1, capPerWeek: 2 };
  const noon = at('2026-11-02T11:00:00Z');
  const subscriber = { status: 'confirmed', time_zone: 'Europe/Paris', day: 0, week: 0, oldestToday: null };

  it('sends only to the confirmed, within the caps, outside quiet hours', () => {
    assert.deepEqual(verdictOf(noon, subscriber, rules), { state: 'sent' });
    assert.deepEqual(verdictOf(noon, { ...subscriber, status: 'pending' }, rules), {
      state: 'skipped',
      reason: 'unconfirmed',
    });
    assert.deepEqual(verdictOf(noon, { ...subscriber, status: 'unsubscribed' }, rules), {
      state: 'skipped',
      reason: 'unsubscribed',
    });
    assert.deepEqual(verdictOf(noon, { ...subscriber, week: 2 }, rules), {
      state: 'skipped',
      reason: 'cap_week',
    });
    const earlier = at('2026-11-02T06:00:00Z');
    assert.deepEqual(verdictOf(noon, { ...subscriber, day: 1, week: 1, oldestToday: earlier }, rules), {
      state: 'deferred',
      reason: 'cap_day',
      notBefore: at('2026-11-03T06:00:00Z'),
    });
    assert.deepEqual(verdictOf(at('2026-11-02T21:00:00Z'), subscriber, rules), {
      state: 'deferred',
      reason: 'quiet_hours',
      notBefore: at('2026-11-03T07:00:00Z'),
    });
  });
});

describe('personalisation fields', () => {
  it('fills names, attributes and the code; a missing value reads as nothing', () => {
    assert.equal(
      personalise('Hi {first_name} ({attribute.city}) {offer_code}', { first_name: 'Ana' }, 'ABCD2345'),
      'Hi Ana () ABCD2345',
    );
    assert.deepEqual(
      fieldsOf('{first_name}{last_name}{attribute.x}{offer_code}').map((field) => field.kind),
      ['attribute', 'attribute', 'attribute', 'offer_code'],
    );
    assert.throws(
      () => fieldsOf('Hi {name}'),
      (error: AppError) =>
        error.code === 'VALIDATION_FAILED' && JSON.stringify(error.options.details).includes('{name}'),
    );
  });

  it('measures the longest message: each field as long as its longest value, unicode values as UCS-2', () => {
    assert.deepEqual(
      longestFill('Hi {first_name}', new Map([['first_name', { length: 5, unicode: false }]])),
      {
        encoding: 'GSM-7',
        segments: 1,
        characters: 8,
      },
    );
    assert.equal(
      longestFill('Hi {first_name}', new Map([['first_name', { length: 5, unicode: true }]])).encoding,
      'UCS-2',
    );
    assert.equal(longestFill('{offer_code}').characters, 8);
  });
});

describe('measuring plain text without the calculator', () => {
  it('counts plain GSM-7 text as the calculator does, at every length around the segment limits', () => {
    const plain =
      'Hello Ana, 10% off with CODE2345 (this week only): "yes" & more? STOP_to_stop @#$*+-/:;<=>!';
    for (const length of [0, 1, 70, 153, 159, 160, 161, 306, 307, 459, 460, 1530, 1531]) {
      const text = plain.repeat(20).slice(0, length);
      const calculated = new SegmentedMessage(text);
      assert.deepEqual(
        measure(text),
        { encoding: 'GSM-7', segments: calculated.segmentsCount, characters: calculated.numberOfCharacters },
        `${length} characters`,
      );
    }
    assert.equal(
      measure('a{b}').characters,
      new SegmentedMessage('a{b}').numberOfCharacters,
      'extension characters',
    );
    assert.equal(measure('é中').encoding, 'UCS-2');
  });
});
