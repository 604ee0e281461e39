import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { amazon } from '../../src/modules/tracking/projections/amazon.ts';
import { PARCEL } from '../../src/modules/tracking/projections/fixtures.ts';
import { returnedParcel, standardsTimelines } from './timelines.ts';

/**
 * The oracle is Amazon's own SP-API Shipping v2 model: `GetTrackingResult` and the definitions it
 * refers to, extracted verbatim from shippingV2.json (see amazon/SOURCE.md). Nothing is fetched.
 */
const model = JSON.parse(readFileSync(new URL('./amazon/shippingV2-tracking.json', import.meta.url), 'utf8'));
// Swagger 2.0 definitions are draft-04 JSON Schema with x- extensions, which strict mode refuses.
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(model, 'shippingV2.json');
const validateTrackingResult = ajv.getSchema('shippingV2.json#/definitions/GetTrackingResult')!;

function problemsOf(document: unknown): string {
  return validateTrackingResult(JSON.parse(JSON.stringify(document)))
    ? ''
    : ajv.errorsText(validateTrackingResult.errors);
}

describe('amazon against the SP-API Shipping v2 model', () => {
  for (const { name, timeline } of standardsTimelines()) {
    it(`${name}: a valid GetTrackingResult`, () => {
      assert.equal(problemsOf(amazon(timeline)), '');
    });
  }

  it('is checked by an oracle that refuses a code outside its EventCode enum and a missing required field', () => {
    const document = amazon(PARCEL);
    assert.match(
      problemsOf({
        ...document,
        eventHistory: [{ eventCode: 'PackageReceivedByCarrier', eventTime: '2026-11-02T19:05:00Z' }],
      }),
      /allowed values/,
    );
    const { promisedDeliveryDate: _, ...withoutPromise } = document;
    assert.match(problemsOf(withoutPromise), /promisedDeliveryDate/);
  });

  it('promises the end of the local day the parcel went out for delivery, and has no second leg', () => {
    const document = amazon(PARCEL);
    // Out for delivery on 2026-11-05 at -05:00: that day ends at 04:59:59 UTC the next morning.
    assert.equal(document.promisedDeliveryDate, '2026-11-06T04:59:59Z');
    assert.equal(document.alternateLegTrackingId, '');
    assert.equal(document.trackingId, 'TMS7K2M9Q4XZ1');
    assert.deepEqual(
      amazon(returnedParcel()).eventHistory.map((event) => event.eventCode),
      [
        'ReadyForReceive',
        'PickupDone',
        'ArrivedAtCarrierFacility',
        'Departed',
        'OutForDelivery',
        'DeliveryAttempted',
        'ReturnInitiated',
      ],
    );
  });
});
