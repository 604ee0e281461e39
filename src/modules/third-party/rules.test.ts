import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolvePointer } from './json-connector.ts';
import type { ProviderOrder } from './port.ts';
import { decide } from './rules.ts';
import { rulesSchema } from './schemas.ts';

const at = (lat: number, lng: number, window?: { start: string; end: string }): ProviderOrder => ({
  providerOrderId: 'x',
  acceptBy: new Date('2026-11-02T10:00:00Z'),
  dropoff: { line1: 'somewhere', lat, lng },
  ...(window ? { window } : {}),
});
const rules = (given: unknown) => rulesSchema.parse(given);
const morning = { localTime: '09:00', acceptedToday: 0 };

describe('third-party acceptance rules', () => {
  it('accepts inside a bounding box and rejects outside it', () => {
    const box = rules({ area: { bbox: { min_lat: 48.8, min_lng: 2.2, max_lat: 48.9, max_lng: 2.5 } } });
    assert.deepEqual(decide(box, at(48.85, 2.35), morning), { decision: 'accept' });
    assert.deepEqual(decide(box, at(45.76, 4.83), morning), { decision: 'reject', reason: 'outside_area' });
  });

  it('measures a radius on the sphere, and leaves an order without coordinates out of any area', () => {
    const radius = rules({
      area: { center: { lat: 48.8584, lng: 2.2945 }, radius_km: 5 },
      otherwise: 'manual',
    });
    // Notre-Dame is about 4.4 km from the Eiffel Tower; the Stade de France about 10 km.
    assert.equal(decide(radius, at(48.853, 2.3499), morning).decision, 'accept');
    assert.deepEqual(decide(radius, at(48.9245, 2.3602), morning), {
      decision: 'manual',
      reason: 'outside_area',
    });
    const unplaced = { ...at(0, 0), dropoff: { line1: 'no coordinates' } };
    assert.equal(decide(radius, unplaced, morning).decision, 'manual');
  });

  it("checks the order's window, or its arrival, against the hours, then the day's capacity", () => {
    const hours = rules({ hours: { start: '08:00', end: '20:00' }, daily_capacity: 2 });
    assert.equal(decide(hours, at(0, 0, { start: '09:00', end: '11:00' }), morning).decision, 'accept');
    assert.deepEqual(decide(hours, at(0, 0, { start: '19:00', end: '21:00' }), morning), {
      decision: 'reject',
      reason: 'outside_hours',
    });
    assert.equal(decide(hours, at(0, 0), { localTime: '07:59', acceptedToday: 0 }).decision, 'reject');
    assert.deepEqual(decide(hours, at(0, 0), { localTime: '12:00', acceptedToday: 2 }), {
      decision: 'reject',
      reason: 'daily_capacity_reached',
    });
  });
});

describe('JSON pointers into provider orders', () => {
  it('reads RFC 6901 pointers, escapes included, and misses nothing silently', () => {
    const order = { a: { 'b/c': [10, { '~d': 'x' }] } };
    assert.equal(resolvePointer(order, '/a/b~1c/0'), 10);
    assert.equal(resolvePointer(order, '/a/b~1c/1/~0d'), 'x');
    assert.equal(resolvePointer(order, '/a/missing'), undefined);
    assert.equal(resolvePointer(order, '/a/b~1c/0/deeper'), undefined);
    assert.deepEqual(resolvePointer(order, ''), order);
  });
});
