import assert from 'node:assert/strict';
import { test } from 'node:test';
import { instantOf, parseRule, slotStarts, wallTime } from './availability.ts';

const paris = {
  rrule: 'FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0',
  starts_on: '2026-03-27',
  time_zone: 'Europe/Paris',
};

test('a slot stays at 09:00 on the wall clock across the spring change', () => {
  const starts = slotStarts(paris, new Date('2026-03-27T00:00:00Z'), new Date('2026-03-31T00:00:00Z'));
  assert.deepEqual(
    starts.map((at) => at.toISOString()),
    [
      '2026-03-27T08:00:00.000Z',
      '2026-03-28T08:00:00.000Z',
      '2026-03-29T07:00:00.000Z',
      '2026-03-30T07:00:00.000Z',
    ],
  );
  assert.ok(
    starts.every((at) => wallTime(at, 'Europe/Paris').endsWith('T09:00')),
    'every start reads 09:00',
  );
});

test('a wall time in the skipped hour moves forward', () => {
  assert.equal(
    instantOf(new Date('2026-03-29T02:30:00Z'), 'Europe/Paris').toISOString(),
    '2026-03-29T01:30:00.000Z',
  );
});

test('rules with DTSTART, TZID or no frequency are refused', () => {
  assert.equal(parseRule('DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY'), null);
  assert.equal(parseRule('FREQ=DAILY;TZID=Europe/Paris'), null);
  assert.equal(parseRule('BYHOUR=9'), null);
  assert.equal(parseRule('EVERY TUESDAY'), null);
  assert.ok(parseRule('RRULE:FREQ=WEEKLY;BYDAY=MO'), 'an RRULE: prefix is taken');
});
