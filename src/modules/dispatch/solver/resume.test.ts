import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DAY_SECONDS, type RouteProgress, resumeOf } from './resume.ts';

const HOUR = 3600;
const progress = (extra: Partial<RouteProgress>): RouteProgress => ({
  status: 'started',
  now: 14 * HOUR + 50 * 60,
  departure: 8 * HOUR,
  depot: 0,
  ...extra,
});
const kept = (
  status: 'arrived' | 'done' | 'failed',
  times: { arrivedAt?: number; completedAt?: number },
) => ({
  point: 3,
  status,
  arrivedAt: times.arrivedAt ?? null,
  completedAt: times.completedAt ?? null,
  planned: { arrival: 9 * HOUR, departure: 9 * HOUR + 300 },
  serviceSeconds: 300,
});

describe('where and when a route goes on', () => {
  it('leaves a route not under way at now at the earliest on its day, and as planned on a day gone by', () => {
    assert.deepEqual(resumeOf(progress({ status: 'planned' })), { leavesNotBefore: 14 * HOUR + 50 * 60 });
    assert.deepEqual(resumeOf(progress({ status: 'planned', now: 0 })), { leavesNotBefore: 0 });
    assert.deepEqual(resumeOf(progress({ status: 'planned', now: DAY_SECONDS })), {});
  });

  it('goes on from the depot it left when nothing is done and nothing reported', () => {
    assert.deepEqual(resumeOf(progress({})).started, {
      departure: 8 * HOUR,
      resumeNotBefore: 14 * HOUR + 50 * 60,
      from: { point: 0, at: 8 * HOUR },
    });
  });

  it('goes on from the last stop done, or from a position reported since', () => {
    const lastKept = kept('done', { completedAt: 13 * HOUR });
    assert.deepEqual(resumeOf(progress({ lastKept })).started?.from, { point: 3, at: 13 * HOUR });
    const newer = { point: 7, at: 14 * HOUR + 40 * 60 };
    assert.deepEqual(resumeOf(progress({ lastKept, position: newer })).started?.from, newer);
    const older = { point: 7, at: 12 * HOUR };
    assert.deepEqual(resumeOf(progress({ lastKept, position: older })).started?.from, {
      point: 3,
      at: 13 * HOUR,
    });
    const failed = kept('failed', { completedAt: 13 * HOUR });
    assert.deepEqual(resumeOf(progress({ lastKept: failed, position: newer })).started?.from, newer);
  });

  it('leaves a stop the driver is at once served there, whatever the phone reports', () => {
    const lastKept = kept('arrived', { arrivedAt: 14 * HOUR + 45 * 60 });
    const position = { point: 7, at: 14 * HOUR + 48 * 60 };
    assert.deepEqual(resumeOf(progress({ lastKept, position })).started?.from, {
      point: 3,
      at: 14 * HOUR + 50 * 60,
    });
  });
});
