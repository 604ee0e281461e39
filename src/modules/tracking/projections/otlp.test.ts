import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OtepTimeline } from '../timeline.ts';
import { BASE_URL, PARCEL } from './fixtures.ts';
import { otlp, unixNanos } from './otlp.ts';

function spansOf(timeline: OtepTimeline) {
  return otlp(timeline, { baseUrl: BASE_URL }).resourceSpans[0]!.scopeSpans[0]!.spans;
}

/** Milliseconds from Date, then the nanoseconds: an independent way to the same number. */
const nanos = (iso: string) => (BigInt(Date.parse(iso)) * 1_000_000n).toString();

describe('otlp', () => {
  it('names the service in the resource', () => {
    const resource = otlp(PARCEL, { baseUrl: BASE_URL }).resourceSpans[0]!.resource;
    assert.deepEqual(resource.attributes[0], { key: 'service.name', value: { stringValue: 'tms' } });
  });

  it('gives the journey a 32-hex trace id and every span a 16-hex id of its own', () => {
    const [root, ...spans] = spansOf(PARCEL);
    for (const span of [root!, ...spans]) {
      assert.match(span.traceId, /^[0-9a-f]{32}$/);
      assert.match(span.spanId, /^[0-9a-f]{16}$/);
      assert.equal(span.traceId, root!.traceId);
    }
    assert.equal(new Set([root, ...spans].map((span) => span!.spanId)).size, PARCEL.events.length + 1);
    assert.ok(spans.every((span) => 'parentSpanId' in span && span.parentSpanId === root!.spanId));
  });

  it('derives the trace from the tracking number alone: same number, same trace', () => {
    const [root] = spansOf(PARCEL);
    const [later] = spansOf({ ...PARCEL, events: PARCEL.events.slice(0, 3), delivered: false });
    const [other] = spansOf({ ...PARCEL, subject: { tracking_number: 'TMS0000000000' } });
    assert.equal(later!.traceId, root!.traceId);
    assert.notEqual(other!.traceId, root!.traceId);
  });

  it('times each event span from its event to the next, in nanoseconds as decimal strings', () => {
    const [root, ...spans] = spansOf(PARCEL);
    const times = PARCEL.events.map((event) => nanos(event.occurred_at));
    assert.deepEqual(
      spans.map((span) => span.startTimeUnixNano),
      times,
    );
    assert.deepEqual(
      spans.map((span) => span.endTimeUnixNano),
      [...times.slice(1), times.at(-1)],
    );
    assert.deepEqual([root!.startTimeUnixNano, root!.endTimeUnixNano], [times[0], times.at(-1)]);
    assert.equal(spans[0]!.startTimeUnixNano, '1793607300000000000');
  });

  it('keeps digits below the millisecond', () => {
    assert.equal(unixNanos('2026-11-02T10:30:00.123456789+01:00'), '1793611800123456789');
    assert.equal(unixNanos('2026-11-02T09:30:00Z'), '1793611800000000000');
  });

  it('writes kinds and statuses as integers: exceptions are errors, the delivery a success', () => {
    const [root, ...spans] = spansOf(PARCEL);
    assert.ok([root!, ...spans].every((span) => span.kind === 1));
    assert.deepEqual(
      spans.map((span) => span.status.code),
      [0, 0, 0, 0, 0, 2, 0, 1],
    );
    assert.deepEqual(spans[5]!.status, { code: 2, message: 'Nobody at home, notice left at the door' });
    assert.deepEqual(root!.status, { code: 1 });
  });

  it('writes attributes as key and typed value', () => {
    const hubScan = spansOf(PARCEL)[3]!;
    const attributes = Object.fromEntries(hubScan.attributes.map(({ key, value }) => [key, value]));
    assert.deepEqual(attributes['otep.status_code'], { stringValue: 'arrival_scan' });
    assert.deepEqual(attributes['otep.location.gln'], { stringValue: '4012345000016' });
    assert.deepEqual(attributes['otep.location.lat'], { doubleValue: 50.0379 });
  });

  it('has no span for a timeline without events', () => {
    assert.deepEqual(spansOf({ ...PARCEL, events: [], current_status: undefined, delivered: false }), []);
  });
});
