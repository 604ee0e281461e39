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

test('a blank rule, or one naming RRULE: anywhere but at its start, yields no slots', () => {
  assert.equal(parseRule(''), null);
  assert.equal(parseRule('   '), null);
  assert.equal(parseRule('FREQ=DAILY;RRULE:INTERVAL=2'), null);
  assert.equal(parseRule('FREQ=WEEKLY;BYSETPOS=0'), null, 'parsed, but rrule cannot expand it');
  const week = [new Date('2026-03-20T00:00:00Z'), new Date('2026-04-03T00:00:00Z')] as const;
  assert.deepEqual(slotStarts({ ...paris, rrule: 'BYHOUR=9' }, ...week), []);
});

test('slots are listed from `from` included to `to` excluded', () => {
  const nine = new Date('2026-03-27T08:00:00Z');
  const nextNine = new Date('2026-03-28T08:00:00Z');
  assert.deepEqual(
    slotStarts(paris, nine, nextNine).map((at) => at.toISOString()),
    ['2026-03-27T08:00:00.000Z'],
  );
});

test('a zone 14 hours ahead of UTC gets its slots, however far the wall clock is from UTC', () => {
  // Kiritimati's midnight on the 28th is 10:00 UTC on the 27th.
  const midnight = {
    rrule: 'FREQ=DAILY;BYHOUR=0;BYMINUTE=0;BYSECOND=0',
    starts_on: '2026-03-01',
    time_zone: 'Pacific/Kiritimati',
  };
  assert.deepEqual(
    slotStarts(midnight, new Date('2026-03-27T10:00:00Z'), new Date('2026-03-27T11:00:00Z')).map((at) =>
      at.toISOString(),
    ),
    ['2026-03-27T10:00:00.000Z'],
  );
  const eleven = {
    ...midnight,
    rrule: 'FREQ=DAILY;BYHOUR=11;BYMINUTE=0;BYSECOND=0',
    time_zone: 'Etc/GMT+12',
  };
  // 11:00 at UTC-12 is 23:00 UTC the same day.
  assert.deepEqual(
    slotStarts(eleven, new Date('2026-03-27T23:00:00Z'), new Date('2026-03-28T00:00:00Z')).map((at) =>
      at.toISOString(),
    ),
    ['2026-03-27T23:00:00.000Z'],
  );
});
