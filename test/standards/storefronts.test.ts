import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { PARCEL } from '../../src/modules/tracking/projections/fixtures.ts';
import { bigcommerce } from '../../src/modules/tracking/projections/storefronts.ts';
import { BASE_URL, standardsTimelines } from './timelines.ts';

/**
 * The storefront views against the vendors' published schemas, where one is public. Only
 * BigCommerce publishes one (its Orders v2 OpenAPI, see bigcommerce/SOURCE.md); docs/otep-formats.md
 * says why the others are not checked here.
 */
const orders = JSON.parse(
  readFileSync(new URL('./bigcommerce/orders.v2-shipment-and-status.json', import.meta.url), 'utf8'),
);
// OpenAPI 3.0 schemas carry `example` and other keywords JSON Schema does not know.
const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addSchema(orders, 'orders.v2.json');
const schemaAt = (pointer: string) => ajv.getSchema(`orders.v2.json#/components/schemas/${pointer}`)!;
const validateShipment = schemaAt('orderShipment');
const validateStatusId = schemaAt('order_Shared/properties/status_id');
const validateStatus = schemaAt('order_RespOnly/properties/status');
const shipmentProperties = Object.keys(orders.components.schemas.orderShipment.properties);

type View = { order: { status_id: unknown; status: unknown }; tracking: Record<string, unknown> };

function bigcommerceProblems(view: View): string[] {
  const problems: string[] = [];
  if (!validateShipment(view.tracking)) problems.push(`tracking: ${ajv.errorsText(validateShipment.errors)}`);
  for (const key of Object.keys(view.tracking)) {
    if (!shipmentProperties.includes(key)) problems.push(`tracking.${key} is not an orderShipment property`);
  }
  if (!validateStatusId(view.order.status_id))
    problems.push(`order.status_id: ${ajv.errorsText(validateStatusId.errors)}`);
  if (!validateStatus(view.order.status))
    problems.push(`order.status: ${ajv.errorsText(validateStatus.errors)}`);
  return problems;
}

const project = (timeline: typeof PARCEL) =>
  JSON.parse(JSON.stringify(bigcommerce(timeline, { baseUrl: BASE_URL }))) as View;

describe('bigcommerce against the BigCommerce Orders v2 OpenAPI', () => {
  for (const { name, timeline } of standardsTimelines()) {
    it(`${name}: the shipment is an orderShipment, the status an order's`, () => {
      assert.deepEqual(bigcommerceProblems(project(timeline)), []);
    });
  }

  it('is checked by an oracle that refuses a shipping_provider outside its enum and an unknown field', () => {
    const view = project(PARCEL);
    view.tracking.shipping_provider = '';
    view.tracking.carrier = 'Atlantic Express';
    assert.deepEqual(
      bigcommerceProblems(view).map((problem) => problem.split(' must')[0]),
      ['tracking: data/shipping_provider', 'tracking.carrier is not an orderShipment property'],
    );
  });
});
