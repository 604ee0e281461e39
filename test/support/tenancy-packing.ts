import assert from 'node:assert/strict';
import { adminOfB, api, type Checks, orderOfA, routeOfA, tokenOfA } from './tenancy.ts';

const CARTON = {
  name: 'A box',
  inner: { length_mm: 300, width_mm: 200, height_mm: 200 },
  outer: { length_mm: 310, width_mm: 210, height_mm: 210 },
  tare_grams: 100,
  max_gross_grams: 10_000,
  cost: 0.5,
  currency: 'EUR',
};
const ITEMS = [{ length_mm: 100, width_mm: 100, height_mm: 100, weight_grams: 200, quantity: 2 }];

/** A's carton, A's packing plan against A's order, A's loading space and load plan. */
let madeOfA: Promise<{ carton: number; packingPlan: number; space: number; loadPlan: number }> | undefined;
const ofA = () =>
  (madeOfA ??= (async () => {
    const carton = await api.post('/api/v1/client/packaging', CARTON, { token: tokenOfA });
    assert.equal(carton.status, 200, JSON.stringify(carton.body));
    const plan = await api.post(
      '/api/v1/client/packing-plans',
      { items: ITEMS, time_limit_ms: 100, order_id: orderOfA.id },
      { token: tokenOfA },
    );
    assert.equal(plan.status, 200, JSON.stringify(plan.body));
    const space = await api.post(
      '/api/v1/client/loading-spaces',
      { name: 'A van', length_mm: 3000, width_mm: 1700, height_mm: 1800 },
      { token: tokenOfA },
    );
    assert.equal(space.status, 200, JSON.stringify(space.body));
    const load = await api.post(
      '/api/v1/client/load-plans',
      { space: String(space.body.space.id), items: ITEMS, time_limit_ms: 100 },
      { token: tokenOfA },
    );
    assert.equal(load.status, 200, JSON.stringify(load.body));
    return {
      carton: carton.body.packaging.id as number,
      packingPlan: plan.body.plan.id as number,
      space: space.body.space.id as number,
      loadPlan: load.body.plan.id as number,
    };
  })());

/** What A reads of its own packing and loading. */
const asA = async () => {
  const ids = await ofA();
  return {
    packaging: (await api.get('/api/v1/client/packaging', { token: tokenOfA })).body,
    plan: (await api.get(`/api/v1/client/packing-plans/${ids.packingPlan}`, { token: tokenOfA })).body,
    spaces: (await api.get('/api/v1/client/loading-spaces', { token: tokenOfA })).body,
    load: (await api.get(`/api/v1/client/load-plans/${ids.loadPlan}`, { token: tokenOfA })).body,
  };
};

/** B's admin on one of A's things: refused as unknown, and A's data unchanged. */
const refusedToB =
  (method: string, path: (ids: Awaited<ReturnType<typeof ofA>>) => string, code: string, body?: object) =>
  async () => {
    const ids = await ofA();
    const before = await asA();
    const answer = await api.call(method, path(ids), { token: adminOfB(), body });
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, code);
    assert.deepEqual(await asA(), before);
  };

/** B's admin lists: nothing of A's (B's own, made by other checks, may be there). */
const listsNothingOfA = (path: string, field: string) => async () => {
  const ids = await ofA();
  const ofAs = [ids.carton, ids.packingPlan, ids.space, ids.loadPlan];
  const listed = await api.get(path, { token: adminOfB() });
  assert.equal(listed.status, 200, JSON.stringify(listed.body));
  const aSeen = await api.get(path, { token: tokenOfA });
  const mine = new Set(aSeen.body[field].map((one: { id: number | null }) => one.id).filter(Boolean));
  assert.ok(mine.size > 0 && [...mine].some((id) => ofAs.includes(id as number)));
  assert.deepEqual(
    listed.body[field].filter((one: { id: number | null }) => one.id !== null && mine.has(one.id)),
    [],
  );
};

export const packingChecks: Checks = {
  create_packaging: async () => {
    const before = await asA();
    const made = await api.post('/api/v1/client/packaging', CARTON, { token: adminOfB() });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.deepEqual(await asA(), before);
  },
  list_packaging: listsNothingOfA('/api/v1/client/packaging', 'packaging'),
  replace_packaging: refusedToB(
    'PUT',
    (ids) => `/api/v1/client/packaging/${ids.carton}`,
    'PACKAGING_NOT_FOUND',
    CARTON,
  ),
  delete_packaging: refusedToB(
    'DELETE',
    (ids) => `/api/v1/client/packaging/${ids.carton}`,
    'PACKAGING_NOT_FOUND',
  ),
  create_packing_plan: async () => {
    const ids = await ofA();
    // B names A's carton and A's order: both unknown to B.
    const carton = await api.post(
      '/api/v1/client/packing-plans',
      { items: ITEMS, packaging_ids: [ids.carton], time_limit_ms: 100 },
      { token: adminOfB() },
    );
    assert.equal(carton.status, 404, JSON.stringify(carton.body));
    assert.equal(carton.body.error_code, 'PACKAGING_NOT_FOUND');
    const order = await api.post(
      '/api/v1/client/packing-plans',
      { items: ITEMS, order_id: orderOfA.id, time_limit_ms: 100 },
      { token: adminOfB() },
    );
    assert.equal(order.status, 404, JSON.stringify(order.body));
    assert.equal(order.body.error_code, 'ORDER_NOT_FOUND');
  },
  get_packing_plan: refusedToB(
    'GET',
    (ids) => `/api/v1/client/packing-plans/${ids.packingPlan}`,
    'PACKING_PLAN_NOT_FOUND',
  ),
  list_packing_plans: listsNothingOfA('/api/v1/client/packing-plans', 'plans'),
  rerun_packing_plan: refusedToB(
    'POST',
    (ids) => `/api/v1/client/packing-plans/${ids.packingPlan}/rerun`,
    'PACKING_PLAN_NOT_FOUND',
    {},
  ),
  apply_packing_plan: async () => {
    await ofA();
    const before = await api.get(`/api/v1/client/orders/${orderOfA.id}`, { token: tokenOfA });
    // B's own plan onto A's order: the order is unknown to B, and keeps its packages.
    const own = await api.post(
      '/api/v1/client/packing-plans',
      { items: ITEMS, time_limit_ms: 100 },
      { token: adminOfB() },
    );
    assert.equal(own.status, 200, JSON.stringify(own.body));
    const applied = await api.post(
      `/api/v1/client/packing-plans/${own.body.plan.id}/apply`,
      { order_id: orderOfA.id },
      { token: adminOfB() },
    );
    assert.equal(applied.status, 404, JSON.stringify(applied.body));
    assert.equal(applied.body.error_code, 'ORDER_NOT_FOUND');
    const after = await api.get(`/api/v1/client/orders/${orderOfA.id}`, { token: tokenOfA });
    assert.deepEqual(after.body.order.packages, before.body.order.packages);
  },
  list_loading_spaces: listsNothingOfA('/api/v1/client/loading-spaces', 'spaces'),
  create_loading_space: async () => {
    const before = await asA();
    const made = await api.post(
      '/api/v1/client/loading-spaces',
      { name: 'B van', length_mm: 3000, width_mm: 1700, height_mm: 1800 },
      { token: adminOfB() },
    );
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.deepEqual(await asA(), before);
  },
  delete_loading_space: refusedToB(
    'DELETE',
    (ids) => `/api/v1/client/loading-spaces/${ids.space}`,
    'LOADING_SPACE_NOT_FOUND',
  ),
  create_load_plan: async () => {
    const ids = await ofA();
    const space = await api.post(
      '/api/v1/client/load-plans',
      { space: String(ids.space), items: ITEMS, time_limit_ms: 100 },
      { token: adminOfB() },
    );
    assert.equal(space.status, 404, JSON.stringify(space.body));
    assert.equal(space.body.error_code, 'LOADING_SPACE_NOT_FOUND');
    const route = await api.post(
      '/api/v1/client/load-plans',
      { space: 'van-3t5', route_id: routeOfA, time_limit_ms: 100 },
      { token: adminOfB() },
    );
    assert.equal(route.status, 404, JSON.stringify(route.body));
    assert.equal(route.body.error_code, 'ROUTE_NOT_FOUND');
  },
  get_load_plan: refusedToB(
    'GET',
    (ids) => `/api/v1/client/load-plans/${ids.loadPlan}`,
    'LOAD_PLAN_NOT_FOUND',
  ),
  list_load_plans: listsNothingOfA('/api/v1/client/load-plans', 'plans'),
  replan_load_plan: refusedToB(
    'POST',
    (ids) => `/api/v1/client/load-plans/${ids.loadPlan}/replan`,
    'LOAD_PLAN_NOT_FOUND',
    {},
  ),
  get_loading_settings: async () => {
    const answer = await api.get('/api/v1/client/loading-settings', { token: adminOfB() });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.settings.replan_automatically, false, "A's settings are not B's");
  },
  update_loading_settings: async () => {
    const answer = await api.call('PUT', '/api/v1/client/loading-settings', {
      token: adminOfB(),
      body: { replan_automatically: true },
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const asA = await api.get('/api/v1/client/loading-settings', { token: tokenOfA });
    assert.equal(asA.body.settings.replan_automatically, false, "B's change leaves A's settings alone");
  },
};
