import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './support/server.ts';
import type { Checks } from './support/tenancy.ts';
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
 * What the checks miss and what they name in vain: operations that need a token and have no check,
 * checks whose operation is gone (renamed or removed: the check runs, and covers nothing), and
 * operations checked in two families (a spread would keep one of them silently).
 */
function coverageGaps(
  operations: ReadonlyArray<{ name: string; access: { public?: boolean } }>,
  families: Record<string, Checks>,
) {
  const names = new Set(operations.map((op) => op.name));
  const guarded = operations.filter((op) => !op.access.public).map((op) => op.name);
  const checked = new Map<string, string[]>();
  for (const [family, checks] of Object.entries(families)) {
    for (const name of Object.keys(checks)) checked.set(name, [...(checked.get(name) ?? []), family]);
  }
  return {
    unchecked: guarded.filter((name) => !checked.has(name)),
    // A public operation may have a check too (a push signed per business), but every check names one.
    stale: [...checked.keys()].filter((name) => !names.has(name)),
    twice: [...checked].filter(([, families]) => families.length > 1).map(([name]) => name),
  };
}

/**
 * Business A's data must be out of reach of every token of business B. Each operation that needs
 * a token has a check in one of the families below (each run by its test/tenancy-*.test.ts); a new
 * operation without one fails this coverage test, and so does a check left behind by an operation
 * that was renamed or removed.
 */
describe('tenant isolation', () => {
  let server: TestServer;
  const families: Record<string, Checks> = {
    orderChecks,
    routeChecks,
    placeChecks,
    shippingWarehouseChecks,
    platformChecks,
    fleetChecks,
    boardChecks,
    riderChecks,
    suggestionChecks,
    agentChecks,
    packingChecks,
    lockerChecks,
    consolidationChecks,
    thirdPartyChecks,
    reservationChecks,
    smsSubscriberChecks,
    smsReportChecks,
    smsCampaignChecks,
    ocrChecks,
  };

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('has a cross-tenant check for every operation that needs a token, each naming a live operation once', () => {
    assert.deepEqual(coverageGaps(server.app.catalog.list(), families), {
      unchecked: [],
      stale: [],
      twice: [],
    });
  });

  it('notices a missing check, a check whose operation is gone, and a check made twice', () => {
    const operations = [
      { name: 'get_things', access: {} },
      { name: 'save_thing', access: {} },
      { name: 'track_thing', access: { public: true } },
    ];
    const noop = async () => {};
    const gaps = coverageGaps(operations, {
      things: { get_things: noop, get_old_things: noop, track_thing: noop },
      more: { get_things: noop },
    });
    assert.deepEqual(gaps, {
      unchecked: ['save_thing'],
      stale: ['get_old_things'],
      twice: ['get_things'],
    });
  });
});
