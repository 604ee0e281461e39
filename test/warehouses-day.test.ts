import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ClientError, GraphQLClient, gql } from 'graphql-request';
import { login } from './support/fixtures.ts';
import {
  admin,
  api,
  driver,
  employee,
  events,
  get,
  inventory,
  lanes,
  north,
  orderIds,
  otherAdmin,
  otherNumber,
  post,
  ROUTE_DATE,
  receive,
  routeId,
  server,
  setUpWarehouses,
  south,
  statusOf,
  tenant,
  tn,
} from './support/warehouses.ts';

/**
 * The warehouse day, end to end through the API: receive a mixed batch, transfer the
 * mis-received packages as a batch and roll a batch back, put away, sort to routes, load a
 * route with one package missing and one extra, dispatch; with the refusals around it.
 */
describe('warehouses', () => {
  before(setUpWarehouses);
  after(() => server.close());

  it('runs the whole day: receive, transfer, roll back, put away, sort, load, dispatch', async () => {
    // ----- receiving a mixed batch -----
    const batch = await receive([
      tn.R1!,
      tn.R2!,
      tn.R3!,
      tn.R4!,
      tn.R5!,
      tn.U5!,
      tn.L1!,
      tn.L2!,
      'TMSNOSUCHNUM1',
      otherNumber,
    ]);
    assert.equal(batch.status, 200, JSON.stringify(batch.body));
    assert.equal(batch.body.received, 8);
    const byNumber = new Map(
      batch.body.results.map((r: { tracking_number: string }) => [r.tracking_number, r]),
    );
    assert.deepEqual(
      [tn.L1, tn.L2].map(
        (n) => byNumber.get(n) as { mis_received: boolean; home_warehouse: { code: string } },
      ),
      [tn.L1, tn.L2].map((n) => ({
        ...(byNumber.get(n) as object),
        mis_received: true,
        home_warehouse: { id: south, code: 'SOUTH' },
      })),
    );
    assert.equal((byNumber.get(tn.R1) as { mis_received: boolean }).mis_received, false);
    for (const unknown of ['TMSNOSUCHNUM1', otherNumber]) {
      // Another business's number is as unknown as a made-up one: nothing leaks.
      assert.deepEqual(
        [
          (byNumber.get(unknown) as { outcome: string }).outcome,
          (byNumber.get(unknown) as { error_code: string }).error_code,
        ],
        ['refused', 'TRACKING_NOT_FOUND'],
      );
    }
    assert.equal(await statusOf('R1'), 'AT_WAREHOUSE');
    assert.equal(await statusOf('L1'), 'AT_WAREHOUSE');
    const received = (await events('R1')).filter((e) => e.status_code === 'received');
    assert.equal(received.length, 1);
    assert.equal(received[0]!.location?.name, 'Warehouse NORTH');

    // Scanning twice changes nothing the second time.
    const twice = await receive([tn.R1!]);
    assert.equal(twice.body.results[0].outcome, 'already_received');
    assert.equal((await events('R1')).filter((e) => e.status_code === 'received').length, 1);
    // Received elsewhere while NORTH holds it: refused, the inventory untouched.
    const elsewhere = await receive([tn.R1!], employee, south);
    assert.equal(elsewhere.body.results[0].error_code, 'PACKAGE_IN_OTHER_WAREHOUSE');

    const held = await inventory(`warehouse_id=${north}`);
    assert.equal(held.total, 8);
    assert.deepEqual(held.summary, [{ warehouse_id: north, location: null, state: 'received', packages: 8 }]);
    assert.equal((await inventory(`warehouse_id=${north}&mis_received=true`)).total, 2);

    // ----- transfer: a batch with a package that cannot move moves nothing -----
    const refused = await post(
      '/v1/client/warehouse-transfers',
      {
        from_warehouse_id: north,
        to_warehouse_id: south,
        tracking_numbers: [tn.L1, tn.U6, 'TMSNOSUCHNUM1'],
      },
      employee,
    );
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.error_code, 'TRANSFER_REFUSED');
    assert.deepEqual(refused.body.details.failures, [
      { tracking_number: tn.U6, reason: 'not_in_source_warehouse' },
      { tracking_number: 'TMSNOSUCHNUM1', reason: 'unknown_tracking_number' },
    ]);
    assert.equal((await inventory(`tracking_number=${tn.L1}`)).packages[0].warehouse_id, north);

    server.clock.advance(60_000);
    const moved = await post(
      '/v1/client/warehouse-transfers',
      {
        from_warehouse_id: north,
        to_warehouse_id: south,
        tracking_numbers: [tn.L1, tn.L2],
        note: 'mis-received Lyon parcels',
      },
      employee,
    );
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    const transferId = moved.body.transfer.id;
    const atSouth = await inventory(`warehouse_id=${south}`);
    assert.deepEqual(
      atSouth.packages.map((p: { tracking_number: string }) => p.tracking_number).sort(),
      [tn.L1, tn.L2].sort(),
    );
    assert.ok(atSouth.packages.every((p: { mis_received: boolean }) => !p.mis_received));
    assert.equal(await statusOf('L1'), 'AT_WAREHOUSE');
    const l1 = await events('L1');
    assert.deepEqual(
      l1.slice(-2).map((e) => [e.status_code, e.location?.name]),
      [
        ['package_outbound', 'Warehouse NORTH'],
        ['arrival_scan', 'Warehouse SOUTH'],
      ],
    );
    const trail = async () =>
      (await post('/v1/tracking/operationevents', { order_refs: ['L1'] })).body.events as Array<{
        action: string;
        actor: { id: number } | null;
        source: string;
        changes: Record<string, { from: unknown; to: unknown }>;
      }>;
    const transferred = (await trail()).find((e) => e.action === 'warehouse_transferred')!;
    assert.deepEqual(transferred.changes.warehouse_id, { from: north, to: south });
    assert.equal(transferred.actor?.id, tenant.userIds.employee);
    assert.equal(transferred.source, 'rest');
    const audited = await server.db
      .selectFrom('operation_audit')
      .select(['operation', 'actor_user_id', 'door'])
      .where('operation', '=', 'transfer_packages')
      .execute();
    // The refused batch rolled back whole, its audit row with it: only the committed one is kept.
    assert.deepEqual(audited, [
      { operation: 'transfer_packages', actor_user_id: tenant.userIds.employee, door: 'rest' },
    ]);

    // ----- roll the batch back -----
    server.clock.advance(60_000);
    const back = await post(`/v1/client/warehouse-transfers/${transferId}/rollback`, {}, employee);
    assert.equal(back.status, 200, JSON.stringify(back.body));
    assert.ok(back.body.transfer.rolled_back_at);
    assert.equal((await inventory(`warehouse_id=${north}&mis_received=true`)).total, 2);
    assert.deepEqual(
      (await events('L1')).slice(-2).map((e) => [e.status_code, e.location?.name]),
      [
        ['package_outbound', 'Warehouse SOUTH'],
        ['arrival_scan', 'Warehouse NORTH'],
      ],
    );
    assert.ok(
      (await trail()).some(
        (e) => e.action === 'warehouse_transfer_rolled_back' && e.actor?.id === tenant.userIds.employee,
      ),
    );
    const again = await post(`/v1/client/warehouse-transfers/${transferId}/rollback`, {}, employee);
    assert.equal(again.body.error_code, 'TRANSFER_NOT_REVERSIBLE');

    // A transfer whose package moved since cannot be rolled back; the refusal names it.
    const second = await post(
      '/v1/client/warehouse-transfers',
      {
        from_warehouse_id: north,
        to_warehouse_id: south,
        tracking_numbers: [tn.L1, tn.L2],
      },
      employee,
    );
    assert.equal(second.status, 200, JSON.stringify(second.body));
    await post(`/v1/client/warehouses/${south}/locations`, { code: 'S-BIN', kind: 'bin', capacity: 5 });
    const southBin = (await get(`/v1/client/warehouses?code=SOUTH`)).body.warehouses[0].locations[0].id;
    const stored = await post(
      `/v1/warehouse/${south}/putaway`,
      { tracking_number: tn.L1, location_id: southBin },
      employee,
    );
    assert.equal(stored.body.outcome, 'moved', JSON.stringify(stored.body));
    const blocked = await post(
      `/v1/client/warehouse-transfers/${second.body.transfer.id}/rollback`,
      {},
      employee,
    );
    assert.equal(blocked.status, 409);
    assert.equal(blocked.body.error_code, 'TRANSFER_NOT_REVERSIBLE');
    assert.deepEqual(blocked.body.details.packages, [tn.L1]);

    // ----- putaway, over capacity refused -----
    const put = await post(
      `/v1/warehouse/${north}/putaway`,
      { tracking_number: tn.U5, location_id: lanes['BIN-1'] },
      driver,
    );
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.deepEqual([put.body.outcome, put.body.location.occupied], ['moved', 1]);
    const same = await post(
      `/v1/warehouse/${north}/putaway`,
      { tracking_number: tn.U5, location_id: lanes['BIN-1'] },
      driver,
    );
    assert.equal(same.body.outcome, 'unchanged');
    const full = await post(
      `/v1/warehouse/${north}/putaway`,
      { tracking_number: tn.R4, location_id: lanes['BIN-1'] },
      driver,
    );
    assert.equal(full.status, 409);
    assert.deepEqual([full.body.error_code, full.body.details.capacity], ['LOCATION_FULL', 1]);
    const notHere = await post(
      `/v1/warehouse/${north}/putaway`,
      { tracking_number: tn.U6, location_id: lanes['BIN-2'] },
      driver,
    );
    assert.equal(notHere.body.error_code, 'PACKAGE_NOT_IN_WAREHOUSE');
    // A storage customer's SKU: received, then part of it put away. Each stock scan carries the
    // gun's scan id: the same scan sent again (even at once, in parallel) moves nothing more.
    const receiveMugs = {
      customer_id: tenant.userIds.customer,
      sku: 'MUG-1',
      quantity: 5,
      scan_id: 'gun-7:0001',
    };
    const [stock, stockAgain] = await Promise.all([
      post(`/v1/warehouse/${north}/receive-stock`, receiveMugs, employee),
      post(`/v1/warehouse/${north}/receive-stock`, receiveMugs, employee),
    ]);
    assert.deepEqual(
      [stock.body.outcome, stockAgain.body.outcome].sort(),
      ['already_received', 'received'],
      JSON.stringify([stock.body, stockAgain.body]),
    );
    assert.deepEqual([stock.body.unplaced_quantity, stockAgain.body.unplaced_quantity], [5, 5]);
    const reused = await post(
      `/v1/warehouse/${north}/receive-stock`,
      { ...receiveMugs, quantity: 6 },
      employee,
    );
    assert.deepEqual([reused.status, reused.body.error_code], [409, 'SCAN_ID_REUSED']);
    const putMugs = {
      sku: 'MUG-1',
      customer_id: tenant.userIds.customer,
      quantity: 3,
      location_id: lanes['BIN-2'],
      scan_id: 'gun-7:0002',
    };
    const placed = await post(`/v1/warehouse/${north}/putaway`, putMugs, employee);
    assert.equal(placed.status, 200, JSON.stringify(placed.body));
    const placedAgain = await post(`/v1/warehouse/${north}/putaway`, putMugs, employee);
    assert.deepEqual(
      [placedAgain.body.outcome, placedAgain.body.location.occupied],
      ['unchanged', placed.body.location.occupied],
    );
    const withoutScanId = await post(
      `/v1/warehouse/${north}/putaway`,
      { ...putMugs, scan_id: undefined },
      employee,
    );
    assert.equal(withoutScanId.status, 422);
    const tooMany = await post(
      `/v1/warehouse/${north}/putaway`,
      { ...putMugs, scan_id: 'gun-7:0003' },
      employee,
    );
    assert.deepEqual([tooMany.body.error_code, tooMany.body.details.available], ['STOCK_NOT_ENOUGH', 2]);
    const skus = await inventory(`what=stock&warehouse_id=${north}&sku=MUG-1`);
    assert.deepEqual(
      skus.stock
        .map((s: { location: { code: string } | null; quantity: number }) => [
          s.location?.code ?? null,
          s.quantity,
        ])
        .sort(),
      [
        ['BIN-2', 3],
        [null, 2],
      ].sort(),
    );

    // ----- route sorting -----
    const sorted = await post(
      `/v1/warehouse/${north}/sort`,
      { tracking_number: tn.R1, date: ROUTE_DATE },
      driver,
    );
    assert.equal(sorted.status, 200, JSON.stringify(sorted.body));
    assert.equal(sorted.body.outcome, 'sorted');
    assert.equal(sorted.body.route.id, routeId);
    assert.deepEqual(sorted.body.lane, { id: lanes['LANE-A'], code: 'LANE-A' });
    const route = (await get(`/v1/client/routes/${routeId}`)).body.route;
    const sequenceOf = (ref: string) =>
      route.stops.find((s: { order_id: number }) => s.order_id === orderIds[ref]).sequence;
    assert.equal(sorted.body.stop_sequence, sequenceOf('R1'));
    assert.equal(
      (await post(`/v1/warehouse/${north}/sort`, { tracking_number: tn.R1, date: ROUTE_DATE }, driver)).body
        .outcome,
      'already_sorted',
    );
    const unrouted = await post(
      `/v1/warehouse/${north}/sort`,
      { tracking_number: tn.U5, date: ROUTE_DATE },
      driver,
    );
    assert.deepEqual([unrouted.body.outcome, unrouted.body.lane], ['no_route', null]);
    for (const ref of ['R2', 'R3', 'R4', 'R5']) {
      const answer = await post(
        `/v1/warehouse/${north}/sort`,
        { tracking_number: tn[ref], date: ROUTE_DATE },
        driver,
      );
      assert.deepEqual([answer.body.lane.code, answer.body.stop_sequence], ['LANE-A', sequenceOf(ref)]);
    }
    const plan = await get(`/v1/warehouse/${north}/sorting?date=${ROUTE_DATE}`, driver);
    assert.equal(plan.status, 200, JSON.stringify(plan.body));
    assert.deepEqual(plan.body.routes[0].sorted.sort(), [tn.R1, tn.R2, tn.R3, tn.R4, tn.R5].sort());
    assert.deepEqual(plan.body.unrouted, [tn.U5]);

    // ----- route outbound: one missing (R4), one extra (U5), one held after loading (R5) -----
    for (const ref of ['R1', 'R2', 'R3', 'R5']) {
      const loaded = await post(
        `/v1/warehouse/${north}/routes/${routeId}/load`,
        { tracking_number: tn[ref] },
        driver,
      );
      assert.equal(loaded.body.outcome, 'loaded', JSON.stringify(loaded.body));
    }
    assert.equal(
      (await post(`/v1/warehouse/${north}/routes/${routeId}/load`, { tracking_number: tn.R1 }, driver)).body
        .outcome,
      'already_loaded',
    );
    assert.equal(
      (await post(`/v1/warehouse/${north}/routes/${routeId}/load`, { tracking_number: tn.U5 }, driver)).body
        .outcome,
      'extra',
    );
    // Held once on the van: off its route, so the van must unload it.
    assert.equal((await post(`/v1/client/orders/${orderIds.R5}/hold`, {})).status, 200);
    const report = await get(`/v1/warehouse/${north}/routes/${routeId}/outbound`, driver);
    assert.deepEqual(
      [report.body.loaded.sort(), report.body.missing, report.body.extra, report.body.unload],
      [[tn.R1, tn.R2, tn.R3].sort(), [tn.R4], [tn.U5], [tn.R5]],
    );
    const laneA = (await get(`/v1/client/warehouses?code=NORTH`)).body.warehouses[0].locations.find(
      (l: { code: string }) => l.code === 'LANE-A',
    );
    assert.equal(laneA.occupied, 1, 'loaded packages left the lane');

    server.clock.advance(60_000);
    const dispatched = await post(`/v1/warehouse/${north}/routes/${routeId}/dispatch`, {}, driver);
    assert.equal(dispatched.status, 200, JSON.stringify(dispatched.body));
    assert.deepEqual(
      [dispatched.body.outcome, dispatched.body.missing, dispatched.body.extra, dispatched.body.unload],
      ['dispatched', [tn.R4], [tn.U5], [tn.R5]],
    );
    assert.equal(await statusOf('R5'), 'HOLD');
    for (const ref of ['R1', 'R2', 'R3']) assert.equal(await statusOf(ref), 'OUT_FOR_DELIVERY');
    assert.equal(await statusOf('R4'), 'AT_WAREHOUSE');
    const out = (await events('R1')).at(-1)!;
    assert.deepEqual([out.status_code, out.location?.name], ['out_for_delivery', 'Warehouse NORTH']);
    const twiceDispatched = await post(`/v1/warehouse/${north}/routes/${routeId}/dispatch`, {}, driver);
    assert.equal(twiceDispatched.body.outcome, 'already_dispatched');
    assert.equal((await events('R1')).filter((e) => e.status_code === 'out_for_delivery').length, 1);
    const late = await post(
      `/v1/warehouse/${north}/routes/${routeId}/load`,
      { tracking_number: tn.R4 },
      driver,
    );
    assert.deepEqual([late.status, late.body.error_code], [409, 'ROUTE_ALREADY_DISPATCHED']);
    // A package of a dispatched route stays where it is.
    const stuck = await post(
      '/v1/client/warehouse-transfers',
      {
        from_warehouse_id: north,
        to_warehouse_id: south,
        tracking_numbers: [tn.R4, tn.R1],
      },
      employee,
    );
    assert.deepEqual(
      stuck.body.details.failures.map((f: { reason: string }) => f.reason),
      ['on_dispatched_route', 'on_dispatched_route'],
    );

    const now = await inventory(`warehouse_id=${north}`);
    assert.deepEqual(
      now.summary.map((s: { location: { code: string } | null; state: string; packages: number }) => [
        s.location?.code ?? null,
        s.state,
        s.packages,
      ]),
      // L1 and L2 went to SOUTH with the second transfer; R1 to R3 left on the van, R5 waits to be unloaded.
      [
        ['BIN-1', 'stored', 1],
        ['LANE-A', 'sorted', 1],
        [null, 'loaded', 1],
      ],
    );
    assert.equal((await inventory(`warehouse_id=${north}&state=dispatched`)).total, 3);
  });

  it('changes a warehouse: only the fields sent, null clearing an optional one', async () => {
    const changed = await api.call('PATCH', `/api/v1/client/warehouses/${south}`, {
      token: admin,
      body: { name: 'Lyon Gerland', opening_hours: { sat: [{ from: '08:00', to: '12:00' }] }, lat: null },
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual(
      [changed.body.warehouse.name, changed.body.warehouse.opening_hours, changed.body.warehouse.address.lat],
      ['Lyon Gerland', { sat: [{ from: '08:00', to: '12:00' }] }, null],
    );
    assert.deepEqual(changed.body.warehouse.postal_prefixes, ['69']);
    const taken = await api.call('PATCH', `/api/v1/client/warehouses/${south}`, {
      token: admin,
      body: { code: 'NORTH' },
    });
    assert.deepEqual([taken.status, taken.body.error_code], [409, 'ALREADY_EXISTS']);
    const theirs = await api.call('PATCH', `/api/v1/client/warehouses/${south}`, {
      token: otherAdmin,
      body: { name: 'x' },
    });
    assert.deepEqual([theirs.status, theirs.body.error_code], [404, 'WAREHOUSE_NOT_FOUND']);
  });

  it('gives two concurrent scans of the same package one receipt and two clear answers', async () => {
    const scans = await Promise.all([receive([tn.U6!]), receive([tn.U6!], driver), receive([tn.U6!], admin)]);
    const outcomes = scans.map((s) => s.body.results[0].outcome).sort();
    assert.deepEqual(outcomes, ['already_received', 'already_received', 'received']);
    assert.equal((await events('U6')).filter((e) => e.status_code === 'received').length, 1);
    const trail = (await post('/v1/tracking/operationevents', { order_refs: ['U6'] })).body.events;
    assert.equal(
      trail.filter((e: { changes: { status?: { to: string } } }) => e.changes.status?.to === 'AT_WAREHOUSE')
        .length,
      1,
    );
    assert.equal((await inventory(`tracking_number=${tn.U6}`)).total, 1);
    // Two putaways racing for the last place of a bin: one wins, the other is told the bin is full.
    const bin = (
      await post(`/v1/client/warehouses/${north}/locations`, { code: 'BIN-RACE', kind: 'bin', capacity: 1 })
    ).body.location.id;
    const race = await Promise.all([
      post(`/v1/warehouse/${north}/putaway`, { tracking_number: tn.U6, location_id: bin }, employee),
      post(`/v1/warehouse/${north}/putaway`, { tracking_number: tn.R4, location_id: bin }, driver),
    ]);
    assert.deepEqual(race.map((r) => r.status).sort(), [200, 409]);
    const after = (await get(`/v1/client/warehouses?code=NORTH`)).body.warehouses[0].locations.find(
      (l: { code: string }) => l.code === 'BIN-RACE',
    );
    assert.equal(after.occupied, 1);
  });

  it("sorts a pickup-and-delivery package to its delivery's stop", async () => {
    const date = '2026-11-06';
    const made = await post('/v1/client/orderCreate', {
      order_ref: 'P2P-SORT',
      type: 'P2P',
      scheduled_date: date,
      pickup: { line1: '3 Rue du Bac', city: 'Paris', postal_code: '75007', lat: 48.857, lng: 2.326 },
      dropoff: { line1: '8 Rue Oberkampf', city: 'Paris', postal_code: '75011', lat: 48.865, lng: 2.371 },
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const built = await post('/v3/client/build-route', { date, time_limit_ms: 200 });
    assert.equal(built.status, 200, JSON.stringify(built.body));
    const stops: Array<{ order_id: number; leg: string; sequence: number }> = built.body.routes[0].stops;
    const legs = new Map(
      stops.filter((s) => s.order_id === made.body.order_id).map((s) => [s.leg, s.sequence]),
    );
    assert.ok(legs.has('pickup') && legs.has('delivery'), JSON.stringify(stops));
    assert.notEqual(legs.get('pickup'), legs.get('delivery'));

    const received = await receive([made.body.tracking_number]);
    assert.equal(received.body.results[0].outcome, 'received', JSON.stringify(received.body));
    const sorted = await post(
      `/v1/warehouse/${north}/sort`,
      { tracking_number: made.body.tracking_number, date },
      employee,
    );
    assert.equal(sorted.status, 200, JSON.stringify(sorted.body));
    assert.deepEqual(
      [sorted.body.outcome, sorted.body.route.id, sorted.body.stop_sequence],
      ['sorted', built.body.routes[0].id, legs.get('delivery')],
    );
  });

  it('changes a location: never below what it holds; a lane in use keeps its kind; capacity 0 closes it', async () => {
    const patch = (id: number, body: unknown, at = north) =>
      api.call('PATCH', `/api/v1/client/warehouses/${at}/locations/${id}`, { token: admin, body });
    const parcel = async (ref: string, date = '2026-11-02') => {
      const made = await post('/v1/client/orderCreate', {
        order_ref: ref,
        scheduled_date: date,
        dropoff: { line1: `${ref} Rue Cler`, city: 'Paris', postal_code: '75007', lat: 48.856, lng: 2.305 },
      });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      return made.body.tracking_number as string;
    };
    const first = await parcel('LOC-1');
    const second = await parcel('LOC-2');
    await receive([first, second]);
    const bin = (
      await post(`/v1/client/warehouses/${north}/locations`, { code: 'BIN-CAP', kind: 'bin', capacity: 5 })
    ).body.location.id;
    const put = (number: string) =>
      post(`/v1/warehouse/${north}/putaway`, { tracking_number: number, location_id: bin }, employee);
    assert.equal((await put(first)).status, 200);

    const below = await patch(bin, { capacity: 0 });
    assert.deepEqual(
      [below.status, below.body.error_code, below.body.details],
      [409, 'CAPACITY_BELOW_OCCUPIED', { location_id: bin, capacity: 0, occupied: 1 }],
    );
    assert.match(below.body.message, /BIN-CAP.*1/);
    const changed = await patch(bin, { code: 'BIN-CAP-1', capacity: 1 });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual(changed.body.location, {
      id: bin,
      warehouse_id: north,
      code: 'BIN-CAP-1',
      kind: 'bin',
      capacity: 1,
      occupied: 1,
    });
    assert.deepEqual((await patch(bin, {})).body.location, changed.body.location);
    const full = await put(second);
    assert.deepEqual([full.status, full.body.error_code], [409, 'LOCATION_FULL']);
    const taken = await patch(bin, { code: 'BIN-2' });
    assert.deepEqual([taken.status, taken.body.error_code], [409, 'ALREADY_EXISTS']);
    const elsewhere = await patch(bin, { capacity: 3 }, south);
    assert.deepEqual([elsewhere.status, elsewhere.body.error_code], [404, 'WAREHOUSE_LOCATION_NOT_FOUND']);
    const theirs = await api.call('PATCH', `/api/v1/client/warehouses/${north}/locations/${bin}`, {
      token: otherAdmin,
      body: { capacity: 3 },
    });
    assert.deepEqual([theirs.status, theirs.body.error_code], [404, 'WAREHOUSE_NOT_FOUND']);

    // LANE-A serves the route of ROUTE_DATE, a day after the server's clock.
    const inUse = await patch(lanes['LANE-A']!, { kind: 'zone' });
    assert.deepEqual([inUse.status, inUse.body.error_code], [409, 'LOCATION_IN_USE']);
    assert.ok(inUse.body.details.route_ids.includes(routeId), JSON.stringify(inUse.body));
    assert.equal((await patch(lanes['LANE-A']!, { capacity: 60 })).body.location.kind, 'staging_lane');

    // A closed lane is given to no new route: SOUTH's only lane, closed, then opened again.
    const date = '2026-11-07';
    const routed = await parcel('LOC-3', date);
    const built = await post('/v3/client/build-route', { date, time_limit_ms: 200 });
    assert.equal(built.status, 200, JSON.stringify(built.body));
    await receive([routed], employee, south);
    const southLane = (
      await post(`/v1/client/warehouses/${south}/locations`, {
        code: 'S-LANE',
        kind: 'staging_lane',
        capacity: 10,
      })
    ).body.location.id;
    assert.equal((await patch(southLane, { capacity: 0 }, south)).status, 200);
    const sort = () => post(`/v1/warehouse/${south}/sort`, { tracking_number: routed, date }, employee);
    const closed = await sort();
    assert.deepEqual([closed.status, closed.body.error_code], [409, 'NO_STAGING_LANE']);
    assert.equal((await patch(southLane, { capacity: 10 }, south)).status, 200);
    const opened = await sort();
    assert.deepEqual([opened.status, opened.body.lane], [200, { id: southLane, code: 'S-LANE' }]);
  });

  it('answers over GraphQL alike, refusals included', async () => {
    const graphql = (token: string) =>
      new GraphQLClient(`${server.baseUrl}/api/graphql`, { headers: { authorization: `Bearer ${token}` } });
    const answer = await graphql(admin).request<{
      warehouses: { total: number; warehouses: Array<{ code: string; locations: Array<{ code: string }> }> };
      inventory: { total: number };
    }>(gql`
      query {
        warehouses { total warehouses { code locations { code } } }
        inventory(warehouse_id: ${north}, state: [stored]) { total }
      }
    `);
    assert.deepEqual(
      answer.warehouses.warehouses.map((w) => w.code),
      ['NORTH', 'SOUTH'],
    );
    // The same count as over REST, and not an empty one.
    const stored = (await inventory(`warehouse_id=${north}&state=stored`)).total;
    assert.ok(stored >= 1);
    assert.equal(answer.inventory.total, stored);
    const scanned = await graphql(employee).request<{
      receivePackages: { results: Array<{ outcome: string }> };
    }>(gql`
      mutation { receivePackages(warehouse_id: ${north}, tracking_numbers: ["${tn.U5}"]) { results { outcome } } }
    `);
    assert.equal(scanned.receivePackages.results[0]!.outcome, 'already_received');
    const codeOf = async (token: string, document: string) => {
      try {
        await graphql(token).request(document);
      } catch (error) {
        assert.ok(error instanceof ClientError);
        return error.response.errors?.[0]?.extensions?.error_code;
      }
      assert.fail('GraphQL answered without an error');
    };
    const customer = await login(api, tenant.emails.customer);
    assert.equal(await codeOf(customer, '{ warehouses { total } }'), 'FORBIDDEN');
    assert.equal(
      await codeOf(otherAdmin, `{ inventory(warehouse_id: ${north}) { total } }`),
      'WAREHOUSE_NOT_FOUND',
    );
    assert.equal(
      await codeOf(
        employee,
        `mutation { receivePackages(warehouse_id: ${north}, tracking_numbers: []) { received } }`,
      ),
      'VALIDATION_FAILED',
    );
    assert.equal(
      await codeOf(
        driver,
        `mutation { receivePackages(warehouse_id: ${south}, tracking_numbers: ["${tn.U5}"]) { received } }`,
      ),
      'WAREHOUSE_ROLE_REQUIRED',
    );
  });
});
