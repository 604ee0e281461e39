import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatLocalDateTime, isValidTimeZone, ManualClock, secondsToLocalMidnight } from './clock.ts';

describe('formatLocalDateTime', () => {
  it('writes the wall-clock time of the zone, across a date line and summer time', () => {
    const at = new Date('2026-07-01T22:15:05Z');
    assert.equal(formatLocalDateTime(at, 'UTC'), '2026-07-01 22:15:05');
    assert.equal(formatLocalDateTime(at, 'Asia/Shanghai'), '2026-07-02 06:15:05');
    assert.equal(formatLocalDateTime(at, 'Europe/Paris'), '2026-07-02 00:15:05');
    assert.equal(
      formatLocalDateTime(new Date('2026-01-01T00:00:00Z'), 'America/New_York'),
      '2025-12-31 19:00:00',
    );
  });

  it('knows real time zones from made-up ones', () => {
    assert.equal(isValidTimeZone('Europe/Paris'), true);
    assert.equal(isValidTimeZone('Mars/Olympus'), false);
  });
});

describe('secondsToLocalMidnight', () => {
  it('counts to the next local midnight, on ordinary days and the days summer time starts or ends', () => {
    const hours = (iso: string, zone: string) => secondsToLocalMidnight(new Date(iso), zone) / 3600;
    assert.equal(hours('2026-07-01T22:15:00Z', 'UTC'), 1.75);
    assert.equal(hours('2026-07-01T12:00:00Z', 'Asia/Shanghai'), 4);
    // Paris at midnight: 23 hours on the day summer time starts, 25 on the day it ends.
    assert.equal(hours('2026-03-28T23:00:00Z', 'Europe/Paris'), 23);
    assert.equal(hours('2026-10-24T22:00:00Z', 'Europe/Paris'), 25);
    assert.equal(hours('2026-10-25T12:00:00Z', 'Europe/Paris'), 11);
    // Santiago skips its midnight when summer time starts: the next day begins at 01:00.
    assert.equal(hours('2026-09-05T16:00:00Z', 'America/Santiago'), 12);
  });
});

describe('ManualClock', () => {
  it('stands still until moved', () => {
    const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
    assert.equal(clock.now().toISOString(), '2026-01-01T00:00:00.000Z');
    clock.advance(1500);
    assert.equal(clock.now().toISOString(), '2026-01-01T00:00:01.500Z');
  });
});
