import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GraphQLClient, gql } from 'graphql-request';
import { PDFDocument } from 'pdf-lib';
import { stepBreaks } from '../src/modules/packing/loading-sheet.ts';
import { createTenant, login, signedInDriversAtDepot, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

const DAY = '2026-11-26';

/** Three cartons: a small, a medium and a large one (outer = inner + 10 mm a side). */
const CARTONS = [
  { name: 'Small', inner: [200, 150, 100], cost: 0.4 },
  { name: 'Medium', inner: [300, 200, 200], cost: 0.7 },
  { name: 'Large', inner: [400, 300, 300], cost: 1.2 },
].map((carton) => {
  const [length_mm, width_mm, height_mm] = carton.inner as [number, number, number];
  return {
    name: carton.name,
    inner: { length_mm, width_mm, height_mm },
    outer: { length_mm: length_mm + 10, width_mm: width_mm + 10, height_mm: height_mm + 10 },
    tare_grams: 150,
    max_gross_grams: 20_000,
    cost: carton.cost,
    currency: 'EUR',
  };
});

describe('packing plans and load plans over REST and GraphQL', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;
  let other: string;
  const cartonIds: number[] = [];

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'pack');
    admin = await login(api, tenant.emails.client_admin);
    const elsewhere = await createTenant(server.db, server.app.services, 'elsewhere');
    other = await login(api, elsewhere.emails.client_admin);
    for (const carton of CARTONS) {
      const made = await api.post('/api/v1/client/packaging', carton, { token: admin });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      cartonIds.push(made.body.packaging.id);
    }
  });

  after(() => server.close());

  it('keeps a packaging catalog and refuses an impossible carton at its field, in the caller’s language', async () => {
    const listed = await api.get('/api/v1/client/packaging', { token: admin });
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.packaging.map((p: { name: string; cost: number }) => [p.name, p.cost]),
      [
        ['Small', 0.4],
        ['Medium', 0.7],
        ['Large', 1.2],
      ],
    );
    const broken = await api.post(
      '/api/v1/client/packaging',
      { ...CARTONS[0], outer: { length_mm: 150, width_mm: 160, height_mm: 110 } },
      { token: admin, headers: { 'accept-language': 'fr' } },
    );
    assert.equal(broken.status, 422);
    assert.equal(broken.body.error_code, 'VALIDATION_FAILED');
    const issue = JSON.stringify(broken.body.details);
    assert.match(issue, /outer/);
    assert.match(issue, /au moins inner\.length_mm/);
    // Another business sees none of it.
    const theirs = await api.get('/api/v1/client/packaging', { token: other });
    assert.deepEqual(theirs.body.packaging, []);
  });

  it('packs items into the smallest total outer volume, keeping the fill cap, and says what fits nothing', async () => {
    const plan = await api.post(
      '/api/v1/client/packing-plans',
      {
        items: [
          { ref: 'MUG', length_mm: 100, width_mm: 100, height_mm: 100, weight_grams: 400, quantity: 8 },
          { ref: 'POSTER', length_mm: 900, width_mm: 80, height_mm: 80, weight_grams: 200 },
        ],
        target_utilization_percent: 90,
        time_limit_ms: 300,
      },
      { token: admin },
    );
    assert.equal(plan.status, 200, JSON.stringify(plan.body));
    const answer = plan.body.plan;
    // Eight 1-litre mugs: 8 litres. The medium carton (12 l) takes them within 90 %, the small
    // one (3 l) only two each within the cap; the large one is bigger than both mediums.
    assert.equal(answer.packages.length, 1, JSON.stringify(answer.packages));
    assert.equal(answer.packages[0].name, 'Medium');
    assert.equal(answer.packages[0].packaging_id, cartonIds[1]);
    assert.equal(answer.packages[0].items.length, 8);
    assert.ok(answer.packages[0].fill_percent <= 90);
    assert.equal(answer.packages[0].gross_weight_grams, 150 + 8 * 400);
    assert.deepEqual(answer.unfit, [{ item_index: 1, ref: 'POSTER', quantity: 1, reason: 'too_large' }]);
    assert.deepEqual(answer.totals.cost, [{ currency: 'EUR', amount: 0.7 }]);
    const read = await api.get(`/api/v1/client/packing-plans/${answer.id}`, { token: admin });
    assert.deepEqual(read.body.plan, answer);
    const listed = await api.get('/api/v1/client/packing-plans?per_page=1', { token: admin });
    assert.equal(listed.body.plans[0].id, answer.id, 'newest first');
    assert.deepEqual([listed.body.page, listed.body.per_page], [1, 1]);
    assert.ok(listed.body.total >= 1);
    const hidden = await api.get(`/api/v1/client/packing-plans/${answer.id}`, { token: other });
    assert.equal(hidden.status, 404);
    assert.equal(hidden.body.error_code, 'PACKING_PLAN_NOT_FOUND');
  });

  it('re-runs a plan against the catalog as it is now', async () => {
    const plan = await api.post(
      '/api/v1/client/packing-plans',
      {
        items: [{ length_mm: 100, width_mm: 100, height_mm: 100, weight_grams: 300, quantity: 8 }],
        target_utilization_percent: 90,
        time_limit_ms: 200,
      },
      { token: admin },
    );
    assert.equal(plan.body.plan.packages[0].name, 'Medium');
    const medium = CARTONS[1]!;
    const off = await api.call('PUT', `/api/v1/client/packaging/${cartonIds[1]}`, {
      token: admin,
      body: { ...medium, active: false },
    });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    try {
      const again = await api.post(
        `/api/v1/client/packing-plans/${plan.body.plan.id}/rerun`,
        {},
        { token: admin },
      );
      assert.equal(again.status, 200, JSON.stringify(again.body));
      assert.ok(
        again.body.plan.packages.every((pkg: { name: string }) => pkg.name !== 'Medium'),
        JSON.stringify(again.body.plan.packages),
      );
      assert.equal(
        again.body.plan.packages.reduce((n: number, pkg: { items: unknown[] }) => n + pkg.items.length, 0),
        8,
      );
    } finally {
      await api.call('PUT', `/api/v1/client/packaging/${cartonIds[1]}`, { token: admin, body: medium });
    }
  });

  it("applies a plan to an order: its packages become the order's, only before pickup and only when complete", async () => {
    const order = await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: 'PACKED-1', dropoff: { line1: '1 Quai', city: 'Lyon', country: 'FR' } },
      { token: admin },
    );
    assert.equal(order.status, 200, JSON.stringify(order.body));
    const orderId = order.body.orders[0].id;
    const kept = order.body.orders[0].packages[0].tracking_number;
    const plan = await api.post(
      '/api/v1/client/packing-plans',
      {
        items: [{ length_mm: 350, width_mm: 250, height_mm: 250, weight_grams: 3000, quantity: 2 }],
        time_limit_ms: 200,
        order_id: orderId,
      },
      { token: admin },
    );
    assert.equal(plan.status, 200, JSON.stringify(plan.body));
    assert.equal(plan.body.plan.packages.length, 2);
    const applied = await api.post(
      `/api/v1/client/packing-plans/${plan.body.plan.id}/apply`,
      { order_id: orderId },
      { token: admin },
    );
    assert.equal(applied.status, 200, JSON.stringify(applied.body));
    assert.equal(applied.body.packages.length, 2);
    assert.equal(applied.body.packages[0].tracking_number, kept);
    assert.deepEqual(
      applied.body.packages.map((p: { length_mm: number; weight_grams: number }) => [
        p.length_mm,
        p.weight_grams,
      ]),
      [
        [410, 3150],
        [410, 3150],
      ],
    );
    assert.ok(applied.body.plan.applied_at);
    const detail = await api.get(`/api/v1/client/orders/${orderId}`, { token: admin });
    assert.deepEqual(
      detail.body.order.packages.map((p: { tracking_number: string }) => p.tracking_number),
      applied.body.packages.map((p: { tracking_number: string }) => p.tracking_number),
    );

    // A plan with a piece no carton takes would lose it: refused, nothing changes.
    const incomplete = await api.post(
      '/api/v1/client/packing-plans',
      { items: [{ length_mm: 2000, width_mm: 100, height_mm: 100, weight_grams: 10 }], time_limit_ms: 100 },
      { token: admin },
    );
    const refused = await api.post(
      `/api/v1/client/packing-plans/${incomplete.body.plan.id}/apply`,
      { order_id: orderId },
      { token: admin },
    );
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error_code, 'PACKING_PLAN_INCOMPLETE');

    // Past pickup the packages travel under their numbers: refused.
    const picked = await api.post(
      `/api/v1/client/orders/${orderId}/status`,
      { status: 'PICKED_UP' },
      { token: admin },
    );
    assert.equal(picked.status, 200, JSON.stringify(picked.body));
    const late = await api.post(
      `/api/v1/client/packing-plans/${plan.body.plan.id}/apply`,
      { order_id: orderId },
      { token: admin },
    );
    assert.equal(late.status, 409);
    assert.equal(late.body.error_code, 'ORDER_PACKAGES_LOCKED');
  });

  it('refuses a plan of more pieces than the documented limit, at the items field', async () => {
    const tooMany = await api.post(
      '/api/v1/client/packing-plans',
      {
        items: [
          { length_mm: 10, width_mm: 10, height_mm: 10, weight_grams: 1, quantity: 400 },
          { length_mm: 10, width_mm: 10, height_mm: 10, weight_grams: 1, quantity: 101 },
        ],
      },
      { token: admin },
    );
    assert.equal(tooMany.status, 422);
    assert.match(JSON.stringify(tooMany.body.details), /At most 500 pieces/);
  });

  it('lists the standard spaces with their sources and contours, and refuses a box an envelope cannot hold', async () => {
    const spaces = await api.get('/api/v1/client/loading-spaces', { token: admin });
    assert.equal(spaces.status, 200);
    const codes = spaces.body.spaces.map((space: { code: string }) => space.code);
    for (const code of [
      'iso-20-dv',
      'iso-40-dv',
      'iso-40-hc',
      'iso-45-hc',
      'uld-ld3',
      'van-3t5',
      'flatrack-40',
    ]) {
      assert.ok(codes.includes(code), code);
    }
    const ld3 = spaces.body.spaces.find((space: { code: string }) => space.code === 'uld-ld3');
    assert.ok(ld3.cross_section.length >= 5);
    assert.match(ld3.source, /162\.6/);

    // The LD3's bounding box, as a plain space of the business: it takes a wide low box the
    // contour (the sloping wall near the floor) refuses.
    const plain = await api.post(
      '/api/v1/client/loading-spaces',
      { name: 'LD3 box', kind: 'custom', length_mm: 1534, width_mm: 2007, height_mm: 1626 },
      { token: admin },
    );
    assert.equal(plain.status, 200, JSON.stringify(plain.body));
    const wideLowBox = [{ ref: 'SKI', length_mm: 1500, width_mm: 1950, height_mm: 300, this_side_up: true }];
    const inBox = await api.post(
      '/api/v1/client/load-plans',
      { space: String(plain.body.space.id), items: wideLowBox, time_limit_ms: 100 },
      { token: admin },
    );
    assert.equal(inBox.status, 200, JSON.stringify(inBox.body));
    assert.equal(inBox.body.plan.placements.length, 1);
    const inLd3 = await api.post(
      '/api/v1/client/load-plans',
      { space: 'uld-ld3', items: wideLowBox, time_limit_ms: 100 },
      { token: admin },
    );
    assert.equal(inLd3.status, 200, JSON.stringify(inLd3.body));
    assert.equal(inLd3.body.plan.placements.length, 0);
    assert.equal(inLd3.body.plan.unplaced[0].reason, 'outside_contour');

    const unknown = await api.post(
      '/api/v1/client/load-plans',
      { space: 'iso-99', items: wideLowBox },
      { token: admin, headers: { 'accept-language': 'de' } },
    );
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error_code, 'LOADING_SPACE_NOT_FOUND');
    assert.match(unknown.body.message, /Kein Laderaum iso-99/);
    const theirs = await api.post(
      '/api/v1/client/load-plans',
      { space: String(plain.body.space.id), items: wideLowBox },
      { token: other },
    );
    assert.equal(theirs.status, 404);
    // A space of the business loaded by hand: two crates a person can lift up to 1.2 m only.
    assert.deepEqual(
      [plain.body.space.reach_limit_mm, plain.body.space.max_stack_ratio, plain.body.space.load_at_door],
      [null, null, false],
    );
    const byHand = await api.post(
      '/api/v1/client/loading-spaces',
      {
        name: 'Small van',
        kind: 'van',
        length_mm: 2000,
        width_mm: 1500,
        height_mm: 1400,
        reach_limit_mm: 1200,
        max_stack_ratio: 3,
        load_at_door: true,
      },
      { token: admin },
    );
    assert.equal(byHand.status, 200, JSON.stringify(byHand.body));
    assert.deepEqual(
      [byHand.body.space.reach_limit_mm, byHand.body.space.max_stack_ratio, byHand.body.space.load_at_door],
      [1200, 3, true],
    );
    const crates = await api.post(
      '/api/v1/client/load-plans',
      {
        space: String(byHand.body.space.id),
        items: [{ length_mm: 1000, width_mm: 1000, height_mm: 700, quantity: 4, this_side_up: true }],
        time_limit_ms: 100,
      },
      { token: admin },
    );
    assert.equal(crates.status, 200, JSON.stringify(crates.body));
    // One layer of two: a second layer would top out at 1.4 m, above the reach.
    assert.equal(crates.body.plan.placements.length, 2);
    assert.deepEqual(crates.body.plan.unplaced, [
      { item_index: 0, ref: null, quantity: 2, reason: 'no_room' },
    ]);
  });

  it('keeps a truck body within its axle limits: slides the load back, then leaves boxes off, saying why', async () => {
    // A 6 m body between its axles; the front axle takes at most 2 t of cargo.
    const axles = [
      { name: 'front', position_mm: 0, max_load_kg: 2000 },
      { name: 'rear', position_mm: 6000, max_load_kg: 6000 },
    ];
    const body = await api.post(
      '/api/v1/client/loading-spaces',
      { name: 'Rigid 6 m', kind: 'truck', length_mm: 6000, width_mm: 1200, height_mm: 1000, axles },
      { token: admin },
    );
    assert.equal(body.status, 200, JSON.stringify(body.body));
    const loadPallets = async (quantity: number) => {
      const pallet = {
        ref: 'PAL',
        length_mm: 1200,
        width_mm: 1200,
        height_mm: 1000,
        weight_grams: 1_000_000,
      };
      const plan = await api.post(
        '/api/v1/client/load-plans',
        { space: String(body.body.space.id), items: [{ ...pallet, quantity }], time_limit_ms: 200 },
        { token: admin },
      );
      assert.equal(plan.status, 200, JSON.stringify(plan.body));
      return plan.body.plan;
    };
    // Three 1 t pallets against the front wall would put 2.1 t on the front axle.
    const slid = await loadPallets(3);
    assert.equal(slid.placements.length, 3);
    assert.ok(Math.min(...slid.placements.map((p: { x_mm: number }) => p.x_mm)) > 0);
    assert.deepEqual(
      slid.axle_loads.map((a: { name: string; within_limit: boolean }) => [a.name, a.within_limit]),
      [
        ['front', true],
        ['rear', true],
      ],
    );
    assert.ok(slid.axle_loads[0].load_kg <= 2000);
    // Five fill the body: no slide helps, so the front one stays behind.
    const thinned = await loadPallets(5);
    assert.equal(thinned.placements.length, 4);
    assert.deepEqual(
      thinned.unplaced.map((u: { quantity: number; reason: string }) => [u.quantity, u.reason]),
      [[1, 'axle_limit']],
    );
    assert.ok(thinned.axle_loads.every((a: { within_limit: boolean }) => a.within_limit));

    const backwards = await api.post(
      '/api/v1/client/loading-spaces',
      { name: 'Backwards', length_mm: 6000, width_mm: 1200, height_mm: 1000, axles: [...axles].reverse() },
      { token: admin, headers: { 'accept-language': 'es' } },
    );
    assert.equal(backwards.status, 422);
    assert.match(
      JSON.stringify(backwards.body.details),
      /axles\.1\.position_mm.*mayor que axles\.0\.position_mm/,
    );
  });

  it("loads a built route's packages so that no later stop blocks an earlier one, and draws it", async () => {
    const [driver] = await signedInDriversAtDepot(server, api, tenant, admin, {
      depot: { lat: 45.76, lng: 4.84 },
      names: ['loader'],
      shift: { start: '07:00', end: '19:00' },
    });
    const places = [
      { lat: 45.77, lng: 4.85 },
      { lat: 45.78, lng: 4.87 },
      { lat: 45.75, lng: 4.83 },
    ];
    for (const [n, place] of places.entries()) {
      const made = await api.post(
        '/api/v1/client/orderCreate',
        {
          order_ref: `LOAD-${n}`,
          scheduled_date: DAY,
          dropoff: { line1: `${n} Rue`, ...place },
          packages: [
            { length_mm: 600, width_mm: 400, height_mm: 400, weight_grams: 8000 },
            { length_mm: 600, width_mm: 400, height_mm: 400, weight_grams: 8000 },
            ...(n === 0 ? [{ weight_grams: 500 }] : []),
          ],
        },
        { token: admin },
      );
      assert.equal(made.status, 200, JSON.stringify(made.body));
    }
    const built = await api.post(
      '/api/v3/client/build-route',
      { date: DAY, driver_ids: [driver!.id] },
      { token: admin },
    );
    assert.equal(built.status, 200, JSON.stringify(built.body));
    const route = built.body.routes[0];
    const plan = await api.post(
      '/api/v1/client/load-plans',
      { space: 'van-3t5', route_id: route.id, time_limit_ms: 300 },
      { token: admin },
    );
    assert.equal(plan.status, 200, JSON.stringify(plan.body));
    const answer = plan.body.plan;
    assert.equal(answer.placements.length, 6);
    assert.equal(answer.unmeasured.length, 1, 'the package without sizes is reported, not guessed');
    assert.equal(answer.total_weight_grams, 48_000);
    assert.ok(answer.centre_of_gravity_offset);
    // Unloading order: the door is at x = length; a box of an earlier stop is never behind (at
    // lower x than the far end of) a box of a later stop that overlaps it across the van.
    for (const early of answer.placements) {
      for (const late of answer.placements) {
        if (late.stop <= early.stop) continue;
        const acrossOverlap =
          early.y_mm < late.y_mm + late.width_mm &&
          late.y_mm < early.y_mm + early.width_mm &&
          early.z_mm < late.z_mm + late.height_mm &&
          late.z_mm < early.z_mm + early.height_mm;
        if (acrossOverlap)
          assert.ok(early.x_mm >= late.x_mm + late.length_mm, JSON.stringify({ early, late }));
      }
    }
    // The van is loaded by hand: low, within reach, at the door, each stop one reach.
    assert.deepEqual(
      [answer.space.reach_limit_mm, answer.space.max_stack_ratio, answer.space.load_at_door],
      [1600, 4, true],
    );
    for (const box of answer.placements) {
      assert.equal(box.z_mm, 0, 'six boxes lie on the floor');
      assert.equal(box.height_mm, 400, 'on their largest face');
    }
    assert.equal(
      Math.max(
        ...answer.placements.map((box: { x_mm: number; length_mm: number }) => box.x_mm + box.length_mm),
      ),
      3270,
    );
    assert.deepEqual(answer.stops, [
      { stop: 1, boxes: 2, boxes_to_move: 0 },
      { stop: 2, boxes: 2, boxes_to_move: 0 },
      { stop: 3, boxes: 2, boxes_to_move: 0 },
    ]);
    const picture = await api.get(`/api/v1/client/load-plans/${answer.id}`, {
      token: admin,
      headers: { accept: 'image/svg+xml' },
    });
    assert.equal(picture.status, 200);
    assert.match(picture.headers.get('content-type') ?? '', /image\/svg\+xml/);
    assert.match(picture.body, /^<svg /);
    // Both ends of the van, the door marked again, three faces a box; each box says its stop.
    assert.equal((picture.body.match(/<polygon /g) ?? []).length, 3 + 6 * 3);
    assert.match(picture.body, />door</);
    assert.match(picture.body, /stop 1/);
    const labels = [...picture.body.matchAll(/text-anchor="middle"[^>]*>(\d+)</g)].map((m) => m[1]).sort();
    assert.deepEqual(labels, ['1', '1', '2', '2', '3', '3']);
    // The loading sheet: the load and its stops, then its six boxes in four pictures, two a page.
    const sheet = await fetch(`${server.baseUrl}/api/v1/client/load-plans/${answer.id}`, {
      headers: { authorization: `Bearer ${admin}`, accept: 'application/pdf' },
    });
    assert.equal(sheet.status, 200);
    assert.equal(sheet.headers.get('content-type'), 'application/pdf');
    const pdf = await PDFDocument.load(new Uint8Array(await sheet.arrayBuffer()));
    assert.equal(pdf.getPageCount(), 3);
    assert.equal(pdf.getTitle(), `Load plan ${answer.id}: ${answer.space.name}, 6 boxes`);
    // Six boxes are loaded in four steps: the pictures end at steps 2, 3, 5 and 6.
    assert.deepEqual(stepBreaks(6), [2, 3, 5, 6]);
    const listed = await api.get(`/api/v1/client/load-plans?route_id=${route.id}`, { token: admin });
    assert.deepEqual(
      listed.body.plans.map((p: { id: number }) => p.id),
      [answer.id],
    );
    assert.deepEqual([listed.body.total, listed.body.page, listed.body.per_page], [1, 1, 50]);
  });

  it('answers the catalog and a plan through a GraphQL client', async () => {
    const graphql = new GraphQLClient(`${server.baseUrl}/api/graphql`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    const answer = await graphql.request<{ packaging: { packaging: Array<{ name: string }> } }>(gql`
      query {
        packaging(active: true) {
          packaging {
            name
          }
        }
      }
    `);
    assert.deepEqual(
      answer.packaging.packaging.map((p) => p.name),
      ['Small', 'Medium', 'Large'],
    );
    const made = await graphql.request<{
      createPackingPlan: { plan: { packages: Array<{ name: string }> } };
    }>(gql`
      mutation {
        createPackingPlan(
          items: [{ length_mm: 190, width_mm: 140, height_mm: 90, weight_grams: 100 }]
          time_limit_ms: 100
        ) {
          plan {
            packages {
              name
            }
          }
        }
      }
    `);
    assert.deepEqual(made.createPackingPlan.plan.packages, [{ name: 'Small' }]);
  });
});
