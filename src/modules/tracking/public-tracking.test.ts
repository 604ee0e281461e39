import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Phase } from './codebook.ts';
import { JOURNEY_STEPS, journeyStep } from './public-tracking.ts';

const events = (...phases: (Phase | null)[]) => phases.map((phase) => ({ phase }));

describe('journeyStep', () => {
  it('keeps the step reached when an exception follows out for delivery', () => {
    // Newest first, as the public answer lists them.
    const reached = journeyStep(events('exception', 'out_for_delivery', 'transit', 'pickup', 'pre_shipment'));
    assert.equal(JOURNEY_STEPS[reached], 'out_for_delivery');
  });

  it('counts inbound as transit and a delivery as the last step', () => {
    assert.equal(JOURNEY_STEPS[journeyStep(events('inbound', 'pickup'))], 'transit');
    assert.equal(journeyStep(events('delivered', 'out_for_delivery')), JOURNEY_STEPS.length - 1);
  });

  it('follows the most recent event, as the status does, not the furthest one ever reached', () => {
    // A scan at a hub after an out-for-delivery that came in late with an earlier time.
    assert.equal(JOURNEY_STEPS[journeyStep(events('transit', 'out_for_delivery', 'pickup'))], 'transit');
    assert.equal(journeyStep(events('pre_shipment', 'pickup')), -1, 'information after pickup: none yet');
    assert.equal(JOURNEY_STEPS[journeyStep(events('exception', 'return', 'transit'))], 'transit');
  });

  it('stays delivered when events reported after the delivery follow it', () => {
    const newestFirst = [
      { phase: 'transit' as const, after_terminal: true },
      { phase: 'out_for_delivery' as const, after_terminal: true },
      ...events('delivered', 'out_for_delivery', 'pickup'),
    ];
    assert.equal(JOURNEY_STEPS[journeyStep(newestFirst)], 'delivered');
  });

  it('reaches no step before pickup, nor by exceptions, returns or experimental codes alone', () => {
    assert.equal(journeyStep([]), -1);
    assert.equal(journeyStep(events('pre_shipment', 'exception', 'return', null)), -1);
  });
});
