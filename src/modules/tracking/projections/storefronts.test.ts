import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OtepTimeline } from '../timeline.ts';
import { BASE_URL, PARCEL } from './fixtures.ts';
import { bigcommerce, etsy, magento, walmart, woocommerce } from './storefronts.ts';

/** The parcel's story cut after its first `count` events, ending with `code` when given. */
function cut(count: number, code?: string): OtepTimeline {
  const events = PARCEL.events.slice(0, count);
  const last = events.at(-1)!;
  if (code)
    events[events.length - 1] = {
      ...last,
      status_code: code,
      phase: code === 'cancelled' ? 'exception' : 'return',
    };
  const current = events.at(-1)!.status_code;
  return { ...PARCEL, events, current_status: current, delivered: current === 'delivered' };
}

function orderStatuses(timeline: OtepTimeline) {
  return [walmart, bigcommerce, magento, woocommerce, etsy].map(
    (view) => (view(timeline, { baseUrl: BASE_URL }) as { order: Record<string, unknown> }).order,
  );
}

describe('storefront views', () => {
  it('say awaiting shipment before the carrier has the parcel', () => {
    assert.deepEqual(orderStatuses(cut(1)), [
      { orderLineStatus: 'Acknowledged' },
      { status_id: 9, status: 'Awaiting Shipment' },
      { state: 'processing', status: 'processing' },
      { status: 'processing' },
      { status: 'paid', is_shipped: false },
    ]);
  });

  it('say shipped from the pickup on, through failed attempts', () => {
    for (const count of [2, 6]) {
      assert.deepEqual(orderStatuses(cut(count)), [
        { orderLineStatus: 'Shipped' },
        { status_id: 2, status: 'Shipped' },
        { state: 'complete', status: 'complete' },
        { status: 'completed' },
        { status: 'completed', is_shipped: true },
      ]);
    }
  });

  it('say cancelled when the shipment is, and stay shipped for a return they have no word for', () => {
    assert.deepEqual(orderStatuses(cut(1, 'cancelled')), [
      { orderLineStatus: 'Cancelled' },
      { status_id: 5, status: 'Cancelled' },
      { state: 'canceled', status: 'canceled' },
      { status: 'cancelled' },
      { status: 'canceled', is_shipped: false },
    ]);
    const returned = walmart(cut(6, 'returned'), { baseUrl: BASE_URL }) as Record<string, unknown>;
    assert.deepEqual(returned.order, { orderLineStatus: 'Shipped' });
    assert.equal(returned.otep_status, 'returned');
    // The longer alias is read as the code it names.
    const alias = walmart(cut(6, 'return_to_sender'), { baseUrl: BASE_URL }) as Record<string, unknown>;
    assert.equal(alias.otep_status, 'returned');
  });

  it('date the shipment at the pickup, in each platform own way', () => {
    const tracking = (view: typeof walmart) =>
      (view(PARCEL, { baseUrl: BASE_URL }) as { tracking: Record<string, unknown> }).tracking;
    assert.equal(tracking(walmart).shipDateTime, Date.parse('2026-11-02T16:20:00+01:00'));
    assert.equal(tracking(bigcommerce).date_created, 'Mon, 02 Nov 2026 15:20:00 +0000');
    assert.equal(tracking(magento).created_at, '2026-11-02 15:20:00');
    assert.equal(tracking(woocommerce).date_shipped, '2026-11-02');
    assert.equal(tracking(etsy).shipment_notification_timestamp, Date.parse('2026-11-02T15:20:00Z') / 1000);
  });
});
