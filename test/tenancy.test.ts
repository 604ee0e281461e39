import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './support/server.ts';
import { agentChecks } from './support/tenancy-agent.ts';
import { boardChecks } from './support/tenancy-board.ts';
import { consolidationChecks } from './support/tenancy-consolidation.ts';
import { fleetChecks } from './support/tenancy-fleets.ts';
import { lockerChecks } from './support/tenancy-lockers.ts';
import { ocrChecks } from './support/tenancy-ocr.ts';
import { orderChecks } from './support/tenancy-orders.ts';
import { packingChecks } from './support/tenancy-packing.ts';
import { placeChecks } from './support/tenancy-places.ts';
import { platformChecks } from './support/tenancy-platform.ts';
import { reservationChecks } from './support/tenancy-reservations.ts';
import { riderChecks } from './support/tenancy-riders.ts';
import { routeChecks } from './support/tenancy-routes.ts';
import { shippingWarehouseChecks } from './support/tenancy-shipping-warehouses.ts';
import { smsCampaignChecks } from './support/tenancy-sms-campaigns.ts';
import { smsReportChecks } from './support/tenancy-sms-reports.ts';
import { smsSubscriberChecks } from './support/tenancy-sms-subscribers.ts';
import { suggestionChecks } from './support/tenancy-suggestions.ts';
import { thirdPartyChecks } from './support/tenancy-third-party.ts';

/**
 * Business A's data must be out of reach of every token of business B. Each operation that needs
 * a token has a check in one of the families below (each run by its test/tenancy-*.test.ts); a new
 * operation without one fails this coverage test.
 */
describe('tenant isolation', () => {
  let server: TestServer;
  const checks = {
    ...orderChecks,
    ...routeChecks,
    ...placeChecks,
    ...shippingWarehouseChecks,
    ...platformChecks,
    ...fleetChecks,
    ...boardChecks,
    ...riderChecks,
    ...suggestionChecks,
    ...agentChecks,
    ...packingChecks,
    ...lockerChecks,
    ...consolidationChecks,
    ...thirdPartyChecks,
    ...reservationChecks,
    ...smsSubscriberChecks,
    ...smsReportChecks,
    ...smsCampaignChecks,
    ...ocrChecks,
  };

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('has a cross-tenant check for every operation that needs a token', () => {
    const guarded = server.app.catalog.list().filter((operation) => !operation.access.public);
    const unchecked = guarded.map((operation) => operation.name).filter((name) => !(name in checks));
    assert.deepEqual(unchecked, []);
  });
});
