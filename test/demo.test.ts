import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { checkLoad, floorFirstCentreHeight } from '../bench/packing/checker.ts';
import { seedDemo } from '../src/demo/seed.ts';
import { pictureWhenAsked } from './support/docs-pictures.ts';
import { login } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { eventually } from './support/lockers.ts';
import { startTestServer, type TestServer } from './support/server.ts';

const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

interface Order {
  id: number;
  order_ref: string;
  family: string;
  status: string;
  route_id: number | null;
  type: string | null;
  postal?: string;
  time_window: { start: string; end: string } | null;
  dropoff: { postal_code?: string; name?: string; phone?: string; line1?: string } | null;
  scheduled_date: string | null;
  packages: Array<{ weight_grams: number | null; tracking_number: string }>;
}

describe('demo data', () => {
  let server: TestServer;
  let api: Client;
  let admin: string;
  let all: Order[];
  let publicMap: { id: number; link: string };
  // The test clock is 2026-11-02T09:30Z: 10:30 in Paris.
  const TODAY = '2026-11-02';
  const TOMORROW = '2026-11-03';

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    const credentials = await seedDemo(server.db, server.app.services, 'demo-pass', server.clock);
    assert.ok(credentials);
    publicMap = credentials.publicMap;
    admin = await login(api, 'admin@demo.test', 'demo-pass');
    all = (await api.get('/api/v1/client/orders?per_page=200', { token: admin })).body.orders;
  });
  after(() => server.close());

  it('holds orders of every family across the lifecycle', () => {
    assert.ok(all.length >= 36, `${all.length} orders`);
    assert.deepEqual([...new Set(all.map((o) => o.family))].sort(), [
      'device_order',
      'label_service',
      'local_delivery',
      'ltl_service',
      'moving_service',
      'shipping_service',
      'storage_service',
    ]);
    const statuses = new Set(all.map((o) => o.status));
    for (const status of ['NEW_ORDER', 'PLANNED', 'HOLD', 'CANCELLED', 'DELIVERED', 'FAILED_ATTEMPT']) {
      assert.ok(statuses.has(status), status);
    }
  });

  it("has two weeks of history, so yesterday's digest compares with the week before", async () => {
    const digest = await api.get('/api/v1/analytics/daily-digest', { token: admin });
    assert.equal(digest.status, 200, JSON.stringify(digest.body));
    assert.equal(digest.body.date, '2026-11-01');
    assert.equal(digest.body.compared_with, '2026-10-25');
    const { figures } = digest.body;
    assert.ok(figures.delivered.value > 0 && figures.delivered.previous > 0, JSON.stringify(figures));
    assert.ok(figures.routes.value > 0 && figures.routes.previous > 0, JSON.stringify(figures));
    assert.ok(figures.on_time_rate.value > 0 && figures.on_time_rate.previous > 0, JSON.stringify(figures));
    assert.ok(digest.body.exceptions.count > 0);
    const month = await api.get('/api/v1/analytics/orders-summary?from=2026-10-19&to=2026-11-01', {
      token: admin,
    });
    assert.ok(
      month.body.returned > 0 && month.body.top_exception_reasons.length > 0,
      JSON.stringify(month.body),
    );
  });

  it("finished the days before today: yesterday's routes driven, every stop done or failed as its order", async () => {
    const byId = new Map(all.map((order) => [order.id, order]));
    for (const date of ['2026-11-01', '2026-10-25']) {
      const answer = await api.get(`/api/v1/client/routes?date=${date}`, { token: admin });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const routes = answer.body.routes as Array<{
        status: string;
        started_at: string | null;
        finished_at: string | null;
        stops: Array<{
          order_id: number;
          status: string;
          arrived_at: string | null;
          completed_at: string | null;
        }>;
      }>;
      assert.ok(routes.length > 0, `routes of ${date}`);
      for (const route of routes) {
        assert.equal(route.status, 'finished', JSON.stringify(route));
        assert.ok(Date.parse(route.started_at!) < Date.parse(route.finished_at!));
        for (const stop of route.stops) {
          assert.ok(['done', 'failed'].includes(stop.status), JSON.stringify(stop));
          assert.ok(Date.parse(route.started_at!) <= Date.parse(stop.arrived_at!));
          assert.ok(Date.parse(stop.completed_at!) <= Date.parse(route.finished_at!));
          const order = byId.get(stop.order_id);
          const expected = stop.status === 'done' ? ['DELIVERED'] : ['FAILED_ATTEMPT', 'RETURNED'];
          assert.ok(
            order && expected.includes(order.status),
            `${order?.order_ref} ${order?.status} at a ${stop.status} stop`,
          );
        }
      }
      const stops = routes.flatMap((route) => route.stops);
      assert.ok(
        stops.some((stop) => stop.status === 'done'),
        date,
      );
    }
    const failed = (await api.get('/api/v1/client/routes?date=2026-11-01', { token: admin })).body.routes
      .flatMap((route: { stops: Array<{ status: string }> }) => route.stops)
      .filter((stop: { status: string }) => stop.status === 'failed');
    assert.ok(failed.length > 0, "yesterday's failures are failed stops");
    const pastOpen = all.filter(
      (o) =>
        o.scheduled_date !== null &&
        o.scheduled_date < TODAY &&
        ['NEW_ORDER', 'PLANNED', 'OUT_FOR_DELIVERY', 'PICKED_UP'].includes(o.status),
    );
    assert.deepEqual(
      pastOpen.map((o) => `${o.order_ref} ${o.status}`),
      [],
    );
  });

  it('stamps the history at the moments it happened: tracking events and audit trail on their own days', async () => {
    // Midnight in Paris: whatever was seeded now (the test clock's 10:30) comes after it.
    const todayStarts = Date.parse(`${TODAY}T00:00:00+01:00`);
    const past = all.filter((o) => o.scheduled_date !== null && o.scheduled_date < TODAY);
    assert.ok(
      past.some((o) => o.order_ref === 'DEMO-20261101-000'),
      "yesterday's demo orders are history too",
    );
    assert.ok(past.length >= 40, `${past.length} past orders`);
    const numbers = past.map((o) => o.packages[0]!.tracking_number);
    const batch = await api.post(
      '/api/v1/otep/trackings/batch',
      { tracking_numbers: numbers.slice(0, 100) },
      { token: admin },
    );
    assert.equal(batch.status, 200, JSON.stringify(batch.body));
    let events = 0;
    for (const { tracking_number, data } of batch.body.data.trackings) {
      for (const event of data.events as Array<{ occurred_at: string; status_code: string }>) {
        events++;
        assert.ok(
          Date.parse(event.occurred_at) < todayStarts,
          `${tracking_number} ${event.status_code} at ${event.occurred_at}`,
        );
      }
    }
    assert.ok(events > Math.min(past.length, 100), `${events} events`);
    const trail = await api.post(
      '/api/v1/tracking/operationevents',
      { order_refs: past.map((o) => o.order_ref) },
      { token: admin },
    );
    assert.equal(trail.status, 200, JSON.stringify(trail.body));
    assert.ok(trail.body.events.length > past.length);
    for (const event of trail.body.events as Array<{ order_ref: string; action: string; at: string }>) {
      assert.ok(Date.parse(event.at) < todayStarts, `${event.order_ref} ${event.action} at ${event.at}`);
    }
  });

  it('keeps an address book, points of interest, return reasons and skills to work with', async () => {
    const found = await api.get('/api/v1/client/addresses/search?q=rivoli', { token: admin });
    assert.equal(found.body.matches[0]?.address.label, 'Head office', JSON.stringify(found.body));
    const places = await api.get('/api/v1/client/points-of-interest', { token: admin });
    assert.deepEqual(places.body.points.map((point: { category: string }) => point.category).sort(), [
      'depot',
      'locker',
    ]);
    const reasons = await api.get('/api/v1/client/return-reasons', { token: admin });
    assert.deepEqual(
      reasons.body.reasons.map((reason: { code: string }) => reason.code),
      ['damaged', 'refused'],
    );
    const skills = await api.get('/api/v1/client/skills', { token: admin });
    assert.deepEqual(skills.body.skills, [{ code: 'fragile', label: 'Fragile goods' }]);
  });

  it('keeps a dataset of customer sites, placed and searchable', async () => {
    const groups = await api.get('/api/v1/client/dataset-groups', { token: admin });
    assert.deepEqual(
      groups.body.groups.map((group: { name: string; dataset_count: number }) => [
        group.name,
        group.dataset_count,
      ]),
      [['Customers', 1]],
    );
    const [sites] = (await api.get('/api/v1/client/datasets', { token: admin })).body.datasets;
    assert.equal(sites.name, 'Customer sites');
    assert.equal(sites.record_count, 5);
    const open = await api.post(
      `/api/v1/client/datasets/${sites.id}/records/search`,
      {
        where: { status: { eq: 'open' }, docks: { gte: 2 } },
        near: { lat: 48.8566, lng: 2.3522, radius_m: 5_000 },
        order: 'distance',
      },
      { token: admin },
    );
    assert.deepEqual(
      open.body.records.map((record: { values: { name: string } }) => record.values.name),
      ['Galeries Lafayette goods-in', 'Montparnasse tower reception'],
    );
  });

  it("publishes a map of the day that shows the business's places and routes, and no one's name", async () => {
    const staff = await api.get(`/api/v1/client/maps/${publicMap.id}`, { token: admin });
    assert.equal(staff.body.map.name, 'Today in Paris');
    const count = (body: { layers: Array<{ key: string; geojson: { features: unknown[] } }> }, key: string) =>
      body.layers.find((layer) => layer.key === key)!.geojson.features.length;
    assert.equal(count(staff.body, 'customer-sites'), 3, 'the open customer sites');
    assert.ok(count(staff.body, 'routes') > 0, "today's routes");
    const open = await api.get(`/api/v1/maps/${publicMap.link}`);
    assert.equal(open.status, 200, JSON.stringify(open.body));
    assert.deepEqual(
      open.body.layers.map((layer: { key: string }) => layer.key),
      staff.body.layers.map((layer: { key: string }) => layer.key),
    );
    assert.equal(count(open.body, 'routes'), count(staff.body, 'routes'));
    const text = JSON.stringify(open.body);
    const people = all.flatMap((order) => [order.dropoff?.name, order.dropoff?.phone, order.dropoff?.line1]);
    for (const words of people.filter((w): w is string => typeof w === 'string' && w.length > 3)) {
      assert.ok(!text.includes(words), `${words} is on the published map`);
    }
    assert.ok(!text.includes('Dara Driver'));
  });

  it('assigns the customer app to the demo business, ready to bootstrap', async () => {
    const answer = await api.get(
      '/api/v1/apps/courier/clients/demo/bootstrap?platform=android&app_version=1.1.0',
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.data.client.display_name, 'Demo Deliveries');
    assert.deepEqual(answer.body.data.settings.home.quick_actions, ['send', 'return', 'wallet']);
    assert.equal(answer.body.data.version_policy.status, 'update_available');
  });

  it('plans every feasible order of today within capacity and time windows', async () => {
    const options = await api.get(`/api/v3/client/build-route/options?date=${TODAY}`, { token: admin });
    assert.equal(options.body.pool.orders, 0, 'every plannable order of today is on a route');
    const drivers = new Map<
      number,
      { capacity: { weight_grams: number; count: number }; shift: { start: string; end: string } }
    >(
      (await api.get('/api/v1/client/drivers', { token: admin })).body.drivers.map(
        (d: { id: number; profile: unknown }) => [d.id, d.profile],
      ),
    );
    const routes = (await api.get(`/api/v1/client/routes?date=${TODAY}`, { token: admin })).body.routes;
    assert.ok(routes.length >= 1);
    const byId = new Map(all.map((o) => [o.id, o]));
    let planned = 0;
    for (const route of routes) {
      // An open route of the fleet's board has no driver yet; the demo's vans share one profile.
      const profile = drivers.get(route.driver?.id ?? [...drivers.keys()][0])!;
      // A P2P order is two stops (pickup, then delivery); its load counts once, and here it is on
      // board for part of the route only, so the sum over the route's orders bounds the peak.
      const orderIds = [
        ...new Set(route.stops.map((stop: { order_id: number }) => stop.order_id)),
      ] as number[];
      const load = orderIds.reduce(
        (sum: { weight: number; count: number }, orderId) => {
          const order = byId.get(orderId)!;
          return {
            weight: sum.weight + order.packages.reduce((w, p) => w + (p.weight_grams ?? 0), 0),
            count: sum.count + order.packages.length,
          };
        },
        { weight: 0, count: 0 },
      );
      assert.ok(load.weight <= profile.capacity.weight_grams);
      assert.ok(load.count <= profile.capacity.count);
      assert.ok(minutes(route.departure) >= minutes(profile.shift.start));
      assert.ok(minutes(route.return_time) <= minutes(profile.shift.end));
      for (const stop of route.stops) {
        const order = byId.get(stop.order_id)!;
        // Today's planned parcels (but one route's) were received at the Paris warehouse.
        assert.ok(['PLANNED', 'AT_WAREHOUSE'].includes(order.status), order.status);
        assert.equal(order.route_id, route.id);
        // The window is the customer's: the delivery's, or the pickup's of a pickup order.
        const windowed = order.type === 'P2P' ? stop.leg === 'delivery' : true;
        if (order.time_window && windowed) {
          assert.ok(minutes(stop.planned_arrival) <= minutes(order.time_window.end), order.order_ref);
          assert.ok(minutes(stop.planned_departure) >= minutes(order.time_window.start), order.order_ref);
        }
      }
      planned += orderIds.length;
    }
    assert.equal(
      planned,
      all.filter((o) => o.route_id !== null && ['PLANNED', 'AT_WAREHOUSE'].includes(o.status)).length,
    );
  });

  it("has a warehouse with locations and today's packages received, one of them mis-received", async () => {
    const { warehouses } = (await api.get('/api/v1/client/warehouses', { token: admin })).body;
    assert.deepEqual(
      warehouses.map((w: { code: string }) => w.code),
      ['LYS-GERLAND', 'PAR-BERCY'],
    );
    const paris = warehouses[1];
    assert.ok(paris.locations.some((l: { kind: string }) => l.kind === 'staging_lane'));
    const held = await api.get(`/api/v1/client/inventory?warehouse_id=${paris.id}`, { token: admin });
    const routed = (
      await api.get(`/api/v1/client/orders?scheduled_date=${TODAY}&status=AT_WAREHOUSE&per_page=200`, {
        token: admin,
      })
    ).body.orders;
    assert.equal(
      held.body.total,
      routed.reduce((n: number, o: { packages: unknown[] }) => n + o.packages.length, 0),
    );
    const mis = await api.get(`/api/v1/client/inventory?warehouse_id=${paris.id}&mis_received=true`, {
      token: admin,
    });
    assert.equal(mis.body.packages.length, 1);
    assert.equal(mis.body.packages[0].home_warehouse_id, warehouses[0].id);
    const employee = await login(api, 'employee@demo.test', 'demo-pass');
    const plan = await api.get(`/api/v1/warehouse/${paris.id}/sorting?date=${TODAY}`, { token: employee });
    assert.equal(plan.status, 200, JSON.stringify(plan.body));
    // Every route but the one left to receive has parcels to sort.
    const toSort = plan.body.routes.filter((r: { to_sort: string[] }) => r.to_sort.length > 0);
    assert.equal(toSort.length, plan.body.routes.length - 1, JSON.stringify(plan.body).slice(0, 300));
  });

  it('takes a cancelled order off its route', async () => {
    const [route] = (await api.get(`/api/v1/client/routes?date=${TODAY}`, { token: admin })).body.routes;
    const orderId = route.stops[0].order_id;
    const cancelled = await api.post(`/api/v1/client/orders/${orderId}/cancel`, {}, { token: admin });
    assert.equal(cancelled.status, 200);
    const after = (await api.get(`/api/v1/client/routes/${route.id}`, { token: admin })).body.route;
    assert.equal(after.stops.length, route.stops.length - 1);
    assert.ok(after.stops.every((stop: { order_id: number }) => stop.order_id !== orderId));
  });

  it("leaves tomorrow's north of Paris and an assigned order to the contractor, who plans them with its own rider", async () => {
    const contractor = await login(api, 'contractor@demo.test', 'demo-pass');
    const visible: Order[] = (
      await api.get(`/api/v1/client/orders?scheduled_date=${TOMORROW}`, { token: contractor })
    ).body.orders;
    assert.ok(visible.length > 1);
    // The north by its rule, and the one order assigned to its dispatcher.
    const assignments = (await api.get('/api/v1/broker-order-assignments', { token: contractor })).body
      .assignments;
    assert.equal(assignments.length, 1);
    assert.ok(
      visible.every(
        (o) => ['75017', '75018'].includes(o.dropoff?.postal_code ?? '') || o.id === assignments[0].order_id,
      ),
    );
    assert.ok(visible.some((o) => o.id === assignments[0].order_id));
    const built = await api.post('/api/v3/client/build-route', { date: TOMORROW }, { token: contractor });
    assert.equal(built.status, 200, JSON.stringify(built.body));
    assert.equal(built.body.totals.assigned, visible.length);
    assert.deepEqual(
      built.body.routes.map((r: { driver: { name: string } }) => r.driver.name),
      ['Sam Swift'],
    );
  });

  it('allies the demo business with a partner that shares its tracking one way', async () => {
    const partner = await login(api, 'admin@partner.demo.test', 'demo-pass');
    const alliances = (await api.get('/api/v1/client/alliances', { token: admin })).body.alliances;
    assert.deepEqual(
      alliances.map((a: { name: string; my_role: string; member_count: number }) => [
        a.name,
        a.my_role,
        a.member_count,
      ]),
      [['Paris Delivery Network', 'owner', 2]],
    );
    const shared = (await api.get('/api/v1/client/accessible-clients', { token: admin })).body.clients;
    assert.deepEqual(
      shared.map((c: { business_code: string; grants: Record<string, boolean> }) => [
        c.business_code,
        c.grants,
      ]),
      [['demo-partner', { track_packages: true, see_orders: false, hand_over_orders: false }]],
    );
    const parcels = (await api.get('/api/v1/client/orders', { token: partner })).body.orders;
    assert.equal(parcels.length, 2);
    const number = parcels[0].packages[0].tracking_number;
    const asDemo = await api.get(`/api/v1/client/trackings/${number}`, { token: admin });
    assert.equal(asDemo.body.view, 'allied', JSON.stringify(asDemo.body));
    // The demo business grants nothing back: the partner sees the demo's parcels as the public does.
    const demoNumber = all[0]!.packages.length
      ? (await api.get(`/api/v1/client/orders/${all[0]!.id}`, { token: admin })).body.order.packages[0]
          .tracking_number
      : undefined;
    assert.ok(demoNumber);
    const asPartner = await api.get(`/api/v1/client/trackings/${demoNumber}`, { token: partner });
    assert.equal(asPartner.body.view, 'public');
    assert.deepEqual(
      (await api.get('/api/v1/client/accessible-clients', { token: partner })).body.clients,
      [],
    );
  });

  it("has order chat on, with a conversation between dispatch and the driver on one of the driver's orders", async () => {
    const driver = await login(api, 'driver@demo.test', 'demo-pass');
    const chats = await api.get('/api/v1/order-chats', { token: driver });
    assert.equal(chats.status, 200, JSON.stringify(chats.body));
    assert.equal(chats.body.chats.length, 1);
    assert.equal(chats.body.chats[0].unread, 0, 'the driver answered the dispatcher: posting marks read');
    const chat = await api.get(`/api/v1/order-chats/${chats.body.chats[0].order_id}`, { token: admin });
    assert.deepEqual(
      chat.body.messages.map((m: { author: { role: string } }) => m.author.role),
      ['driver', 'dispatcher'],
    );
    assert.equal(chat.body.customer_chat, true);
  });
  it('has the operations agent on and set up, its turns saying which variables to set', async () => {
    const conversations = await api.get('/api/v1/agent/conversations', { token: admin });
    assert.equal(conversations.status, 200, JSON.stringify(conversations.body));
    const opened = await api.post('/api/v1/agent/conversations', {}, { token: admin });
    const turn = await api.post(
      `/api/v1/agent/conversations/${opened.body.conversation.id}/turns`,
      { text: 'How many orders today?' },
      { token: admin },
    );
    assert.equal(turn.status, 503, JSON.stringify(turn.body));
    assert.equal(turn.body.error_code, 'AGENT_PROVIDER_NOT_CONFIGURED');
    assert.match(turn.body.message, /AGENT_PROVIDER/);
  });
  it("has a fleet captained by the demo driver, its week's shifts, and two of today's routes on its board", async () => {
    const driver = await login(api, 'driver@demo.test', 'demo-pass');
    const fleets = (await api.get('/api/v1/client/fleets', { token: driver })).body.fleets;
    assert.deepEqual(
      fleets.map((f: { name: string; members: number; my_role: string }) => [f.name, f.members, f.my_role]),
      [['Paris Est', 3, 'captain']],
    );
    const fleet = fleets[0].id;
    const week = await api.get(`/api/v1/client/fleets/${fleet}/shifts?from=${TODAY}&to=2026-11-08`, {
      token: driver,
    });
    assert.equal(week.status, 200, JSON.stringify(week.body));
    // Monday 2 November to Saturday 7: today's shift has begun (no sign-ups), the others are full.
    assert.deepEqual(
      week.body.shifts.map((s: { date: string; signups: unknown[] }) => [s.date, s.signups.length]),
      [
        ['2026-11-02', 0],
        ['2026-11-03', 3],
        ['2026-11-04', 3],
        ['2026-11-05', 3],
        ['2026-11-06', 3],
        ['2026-11-07', 3],
      ],
    );
    const board = await api.get(`/api/v1/client/fleets/${fleet}/board?date=${TODAY}`, { token: driver });
    assert.equal(board.status, 200, JSON.stringify(board.body));
    assert.equal(board.body.routes.length, 2);
    for (const route of board.body.routes) {
      assert.equal(route.claimant, null, 'open to claim');
      assert.ok(route.stops > 0);
      assert.equal(route.pay.currency, 'EUR');
    }
  });

  it("has a packaging catalog and a load plan of today's busiest route, drawn by stop", async () => {
    const catalog = await api.get('/api/v1/client/packaging', { token: admin });
    assert.equal(catalog.status, 200, JSON.stringify(catalog.body));
    assert.ok(catalog.body.packaging.length >= 5);
    const plans = await api.get('/api/v1/client/load-plans', { token: admin });
    assert.equal(plans.body.plans.length, 1, JSON.stringify(plans.body));
    const [plan] = plans.body.plans;
    assert.equal(plan.space.code, 'van-3t5');
    const route = await api.get(`/api/v1/client/routes/${plan.route_id}`, { token: admin });
    assert.equal(route.body.route.date, TODAY);
    // Every parcel of the route's deliveries is in the van, none refused.
    assert.equal(
      plan.placements.length,
      route.body.route.stops.filter((s: { leg: string }) => s.leg !== 'pickup').length,
    );
    assert.deepEqual(plan.unplaced, []);
    // Loaded by hand: the independent checker holds the van's rules (the reach, every box's
    // centre over its support, stacks within their ratio, the unloading order) on the load as
    // answered; every stop is one reach from the door, and the load is no higher than the
    // simplest floor-first load of the same parcels.
    type Box = {
      x_mm: number;
      y_mm: number;
      z_mm: number;
      length_mm: number;
      width_mm: number;
      height_mm: number;
      stop: number;
    };
    const boxes: Box[] = plan.placements;
    const items = boxes.map((box) => ({
      length: box.length_mm,
      width: box.width_mm,
      height: box.height_mm,
      quantity: 1,
      stop: box.stop,
    }));
    const placed = boxes.map((box, item) => ({
      item,
      x: box.x_mm,
      y: box.y_mm,
      z: box.z_mm,
      length: box.length_mm,
      width: box.width_mm,
      height: box.height_mm,
    }));
    const van = {
      length: plan.space.length_mm,
      width: plan.space.width_mm,
      height: plan.space.height_mm,
      reachLimit: plan.space.reach_limit_mm,
      stability: { maxStackRatio: plan.space.max_stack_ratio },
    };
    assert.deepEqual(checkLoad(van, items, placed, plan.support_percent / 100), []);
    assert.ok(plan.stops.length > 1);
    for (const stop of plan.stops) assert.equal(stop.boxes_to_move, 0, JSON.stringify(stop));
    assert.equal(Math.max(...boxes.map((box) => box.x_mm + box.length_mm)), plan.space.length_mm);
    const volume = (box: Box) => box.length_mm * box.width_mm * box.height_mm;
    const centre =
      boxes.reduce((sum, box) => sum + volume(box) * (box.z_mm + box.height_mm / 2), 0) /
      boxes.reduce((sum, box) => sum + volume(box), 0);
    assert.ok(centre <= floorFirstCentreHeight(van, items), `${centre} above floor first`);
    const picture = await api.get(`/api/v1/client/load-plans/${plan.id}`, {
      token: admin,
      headers: { accept: 'image/svg+xml' },
    });
    assert.match(picture.body, /stop 1/);
    // With SCREENSHOTS=1, the picture docs/loading.md shows.
    await pictureWhenAsked('loading-demo.svg', picture.body);
  });

  it('has a forwarding customer with a suite and a parcel announced, tracked by AfterShip pushes', async () => {
    const customer = await login(api, 'customer@demo.test', 'demo-pass');
    const suites = await api.get('/api/v1/consolidation/suites', { token: customer });
    assert.equal(suites.body.suites.length, 1, JSON.stringify(suites.body));
    assert.match(suites.body.suites[0].address.line2, /^Suite PAR-BERCY-/);
    const parcels = await api.get('/api/v1/consolidation/parcels', { token: customer });
    assert.deepEqual(
      parcels.body.parcels.map((p: { state: string; items: unknown[] }) => [p.state, p.items.length]),
      [['announced', 2]],
    );
    const settings = await api.get('/api/v1/consolidation/settings', { token: admin });
    assert.equal(settings.body.settings.webhook_secret_set, true);
  });

  it('has one online rider with a fresh position: the demo driver', async () => {
    const riders = await api.get('/api/v1/client/riders', { token: admin });
    assert.equal(riders.status, 200, JSON.stringify(riders.body));
    assert.deepEqual(
      riders.body.riders.map(
        (rider: { driver: { name: string }; online: boolean; position: { fresh: boolean } }) => [
          rider.driver.name,
          rider.online,
          rider.position.fresh,
        ],
      ),
      [['Dara Driver', true, true]],
    );
  });

  // Last: it starts the background work, which sends the campaign.
  it('has SMS marketing with a confirmed list imported with its evidence, and a campaign that goes out', async () => {
    const list = await api.get('/api/v1/sms/subscribers', { token: admin });
    assert.equal(list.status, 200, JSON.stringify(list.body));
    const subscribers = list.body.subscribers as Array<{ id: number; status: string; phone: string }>;
    assert.deepEqual(
      subscribers.map((s) => s.status),
      ['confirmed', 'confirmed', 'confirmed', 'confirmed'],
    );
    assert.ok(subscribers.some((s) => s.phone === '+4915123456789'));
    const one = await api.get(`/api/v1/sms/subscribers/${subscribers[0]!.id}`, { token: admin });
    assert.equal(one.body.subscriber.evidence[0].source, 'import');
    const [campaign] = (await api.get('/api/v1/sms/campaigns', { token: admin })).body.campaigns;
    await server.app.startBackground(server.pool);
    const report = await eventually(async () => {
      server.app.outbox.poke();
      const read = await api.get(`/api/v1/sms/campaigns/${campaign.id}/report`, { token: admin });
      return read.body.messages?.sent === 4 ? read.body : undefined;
    }, 'the demo campaign sent');
    assert.equal(report.offer_codes.issued, 4);
  });
});
