import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAppError } from '../../platform/errors.ts';
import { areaOf, offShiftRefusal, shiftRefusal, windowPassedRefusal, windowRefusal } from './board-rules.ts';

const MORNING = { id: 7, departure: '08:00', returnTime: '12:00' };

describe('the route board: windows against the driver’s other routes', () => {
  it('lets a route start exactly when another ends, or end exactly when another starts', () => {
    assert.equal(windowRefusal(1, { start: '12:00', end: '15:00' }, [MORNING]), null);
    assert.equal(windowRefusal(1, { start: '05:00', end: '08:00' }, [MORNING]), null);
  });

  it('refuses one minute more either way, naming both windows', () => {
    const late = windowRefusal(1, { start: '11:59', end: '15:00' }, [MORNING]);
    assert.ok(isAppError(late));
    assert.equal(late.code, 'BOARD_WINDOW_OVERLAP');
    assert.deepEqual(late.options.details, {
      route_id: 1,
      window: { start: '11:59', end: '15:00' },
      other_route_id: 7,
      other_window: { start: '08:00', end: '12:00' },
    });
    assert.deepEqual(late.options.params, {
      route: 1,
      window: '11:59-15:00',
      other: 7,
      other_window: '08:00-12:00',
    });
    const early = windowRefusal(1, { start: '05:00', end: '08:01' }, [MORNING]);
    assert.equal(early?.code, 'BOARD_WINDOW_OVERLAP');
  });

  it('refuses a window inside another, or around it, and names the one it meets', () => {
    const afternoon = { id: 8, departure: '13:00', returnTime: '17:00' };
    assert.equal(
      windowRefusal(1, { start: '09:00', end: '10:00' }, [afternoon, MORNING])?.options.details
        ?.other_route_id,
      7,
    );
    assert.equal(
      windowRefusal(1, { start: '12:30', end: '18:00' }, [MORNING, afternoon])?.options.details
        ?.other_route_id,
      8,
    );
    assert.equal(windowRefusal(1, { start: '12:00', end: '13:00' }, [MORNING, afternoon]), null);
    assert.equal(windowRefusal(1, { start: '09:00', end: '10:00' }, []), null);
  });
});

describe('the route board: windows against the driver’s shifts', () => {
  const DAY = [{ start_time: '07:00:00', end_time: '19:00:00' }];

  it('binds no driver without a shift that day', () => {
    assert.equal(shiftRefusal(1, { start: '03:00', end: '23:00' }, []), null);
  });

  it('takes a window that fits a shift exactly, edges included', () => {
    assert.equal(shiftRefusal(1, { start: '07:00', end: '19:00' }, DAY), null);
    assert.equal(shiftRefusal(1, { start: '09:00', end: '10:00' }, DAY), null);
  });

  it('refuses a window a minute over either edge, naming the shifts as HH:MM', () => {
    const early = shiftRefusal(1, { start: '06:59', end: '10:00' }, DAY);
    assert.ok(isAppError(early));
    assert.equal(early.code, 'BOARD_OUTSIDE_SHIFT');
    assert.deepEqual(early.options.details, {
      route_id: 1,
      window: { start: '06:59', end: '10:00' },
      shifts: [{ start: '07:00', end: '19:00' }],
    });
    assert.deepEqual(early.options.params, { route: 1, window: '06:59-10:00', shifts: '07:00-19:00' });
    assert.equal(shiftRefusal(1, { start: '18:00', end: '19:01' }, DAY)?.code, 'BOARD_OUTSIDE_SHIFT');
  });

  it('takes a window that fits any one of the shifts, never one that spans two', () => {
    const split = [
      { start_time: '06:00:00', end_time: '10:00:00' },
      { start_time: '14:00:00', end_time: '20:00:00' },
    ];
    assert.equal(shiftRefusal(1, { start: '15:00', end: '16:00' }, split), null);
    const across = shiftRefusal(1, { start: '09:00', end: '15:00' }, split);
    assert.equal(across?.options.params?.shifts, '06:00-10:00, 14:00-20:00');
  });
});

describe('the route board: the route has not left yet', () => {
  const MORNING = { start: '08:00', end: '12:00' };

  it('takes a claim until the minute before departure, on the business clock', () => {
    assert.equal(windowPassedRefusal(1, '2026-11-03', MORNING, '2026-11-03 07:59:59'), null);
    assert.equal(windowPassedRefusal(1, '2026-11-03', MORNING, '2026-11-02 23:00:00'), null);
  });

  it('refuses from the departure on, and on any later day, saying when it was due', () => {
    const due = windowPassedRefusal(1, '2026-11-03', MORNING, '2026-11-03 08:00:00');
    assert.ok(isAppError(due));
    assert.equal(due.code, 'BOARD_WINDOW_PASSED');
    assert.deepEqual(due.options.params, { route: 1, departure: '2026-11-03 08:00' });
    assert.deepEqual(due.options.details, {
      route_id: 1,
      date: '2026-11-03',
      window: MORNING,
      now: '2026-11-03 08:00',
    });
    assert.equal(
      windowPassedRefusal(1, '2026-11-03', MORNING, '2026-11-04 06:00:00')?.code,
      'BOARD_WINDOW_PASSED',
    );
  });
});

describe('the route board: a shift that day at all', () => {
  it('refuses a driver bound to shift days with no shift that day', () => {
    const off = offShiftRefusal(1, '2026-11-08', true, 0);
    assert.ok(isAppError(off));
    assert.equal(off.code, 'BOARD_OFF_SHIFT');
    assert.deepEqual(off.options.details, { route_id: 1, date: '2026-11-08' });
  });

  it('takes a driver with a shift that day, or one not bound to shift days', () => {
    assert.equal(offShiftRefusal(1, '2026-11-08', true, 1), null);
    assert.equal(offShiftRefusal(1, '2026-11-08', false, 0), null);
  });
});

describe('the route board: the area a route covers', () => {
  it('is no area without stops', () => {
    assert.equal(areaOf([]), null);
  });

  it('is the box of the stops, rounded outwards to 0.01 degree', () => {
    assert.deepEqual(
      areaOf([
        { lat: 31.2345, lng: 121.4712 },
        { lat: 31.2211, lng: 121.4899 },
        { lat: 31.2299, lng: 121.4601 },
      ]),
      { south: 31.22, west: 121.46, north: 31.24, east: 121.49 },
    );
  });

  it('rounds west and south down even below zero', () => {
    assert.deepEqual(areaOf([{ lat: -33.8688, lng: -70.6493 }]), {
      south: -33.87,
      west: -70.65,
      north: -33.86,
      east: -70.64,
    });
  });
});
