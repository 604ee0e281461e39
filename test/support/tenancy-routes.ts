import assert from 'node:assert/strict';
import {
  a,
  adminOfB,
  api,
  b,
  type Checks,
  orderAsA,
  orderOfA,
  routeOfA,
  ruleOfA,
  tokenOfA,
  tokensOfB,
} from './tenancy.ts';

/** The contractor holding A's order, as A sees it. */
const activeBrokerOfA = async () =>
  (
    await api.get(`/api/v1/broker-order-assignments?order_id=${orderOfA.id}&status=active`, {
      token: tokenOfA,
    })
  ).body.assignments[0]?.broker_id;

/**
 * B's driver writing on A's route: not found, and A's route stays planned. The write carries a
 * device time, unless what it sends has times of its own (positions).
 */
const driverOfBOnRouteOfA =
  (path: string, body: object = {}, { timed = true } = {}) =>
  async () => {
    const answer = await api.post(
      `/api/v1/driver/routes/${routeOfA}/${path}`,
      { client_id: `b-${path}`, ...(timed ? { device_time: '2026-11-02T09:00:00Z' } : {}), ...body },
      { token: tokensOfB.driver },
    );
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, 'ROUTE_NOT_FOUND');
    const route = await api.get(`/api/v1/client/routes/${routeOfA}`, { token: tokenOfA });
    assert.equal(route.body.route.status, 'planned');
  };

/** A driver who signed up for A, made by the first registration check that needs one. */
let registrationOfA: Promise<number> | undefined;
const pendingRegistrationOfA = () =>
  (registrationOfA ??= (async () => {
    const signUp = await api.post('/api/v1/driver/register', {
      business_code: a.code,
      name: 'Applicant of A',
      email: 'applicant@tenancy-a.test',
      password: 'a long password',
    });
    assert.equal(signUp.status, 200, JSON.stringify(signUp.body));
    const listed = await api.get('/api/v1/client/driver-registrations', { token: tokenOfA });
    return listed.body.registrations[0].id as number;
  })());
const registrationOfAStaysPending = (decision: 'approve' | 'reject') => async () => {
  const id = await pendingRegistrationOfA();
  const answer = await api.post(
    `/api/v1/client/driver-registrations/${id}/${decision}`,
    {},
    { token: adminOfB() },
  );
  assert.equal(answer.status, 404, JSON.stringify(answer.body));
  assert.equal(answer.body.error_code, 'REGISTRATION_NOT_FOUND');
  const asA = await api.get('/api/v1/client/driver-registrations', { token: tokenOfA });
  assert.equal(asA.body.registrations.find((r: { id: number }) => r.id === id).status, 'pending');
};

let skillOfAMade: Promise<void> | undefined;
/** A's skill `a-only`, made by the first skills check. */
const skillOfA = () => {
  skillOfAMade ??= (async () => {
    for (const [code, label] of [
      ['a-only', 'A only'],
      ['a-second', 'A second'],
    ]) {
      const answer = await api.call('PUT', `/api/v1/client/skills/${code}`, {
        token: tokenOfA,
        body: { label },
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
    }
  })();
  return skillOfAMade;
};
const skillsOfA = async () =>
  (await api.get('/api/v1/client/skills', { token: tokenOfA })).body.skills.map(
    (skill: { code: string; label: string }) => `${skill.code}:${skill.label}`,
  );
/** B's call on A's driver or order: not found, as an unknown id would be. */
const refusedAs = (code: string, method: string, path: string, body?: object) => async () => {
  await skillOfA();
  const answer = await api.call(method, `/api/v1/client/${path}`, { token: adminOfB(), body });
  assert.equal(answer.status, 404, JSON.stringify(answer.body));
  assert.equal(answer.body.error_code, code);
};

/** Drivers, routes, skills and contractors: what B must not reach of A. */
/** A route building of A's accepted as a job (it stays queued: no worker runs here). */
let jobOfAMade: Promise<string> | undefined;
const jobOfA = () => {
  jobOfAMade ??= api
    .call('POST', '/api/v3/client/build-route', {
      token: tokenOfA,
      body: { date: '2026-11-05', time_limit_ms: 100 },
      headers: { prefer: 'respond-async' },
    })
    .then((answer) => {
      assert.equal(answer.status, 202, JSON.stringify(answer.body));
      return answer.body.job.id as string;
    });
  return jobOfAMade;
};

export const routeChecks: Checks = {
  get_job: async () => {
    const answer = await api.get(`/api/v1/jobs/${await jobOfA()}`, { token: adminOfB() });
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, 'JOB_NOT_FOUND');
  },
  rebuild_analytics: async () => {
    // B's rebuild is a job of B's, counting B's orders only; A's job stays A's.
    const answer = await api.post('/api/v1/analytics/rebuild', {}, { token: adminOfB() });
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    const asA = await api.get(answer.headers.get('location')!, { token: tokenOfA });
    assert.equal(asA.status, 404);
  },
  list_jobs: async () => {
    const id = await jobOfA();
    const answer = await api.get('/api/v1/jobs', { token: adminOfB() });
    assert.equal(answer.status, 200);
    assert.ok(answer.body.jobs.every((job: { id: string }) => job.id !== id));
  },
  list_skills: async () => {
    await skillOfA();
    const answer = await api.get('/api/v1/client/skills', { token: adminOfB() });
    assert.equal(answer.status, 200);
    assert.ok(answer.body.skills.every((skill: { code: string }) => skill.code !== 'a-only'));
  },
  save_skill: async () => {
    await skillOfA();
    // B's skill of the same code is B's own; A's keeps its label.
    const answer = await api.call('PUT', '/api/v1/client/skills/a-only', {
      token: adminOfB(),
      body: { label: 'B' },
    });
    assert.equal(answer.body.created, true);
    assert.ok((await skillsOfA()).includes('a-only:A only'));
  },
  delete_skill: async () => {
    await skillOfA();
    const answer = await api.call('DELETE', '/api/v1/client/skills/a-second', { token: adminOfB() });
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, 'SKILL_NOT_FOUND');
    assert.ok((await skillsOfA()).includes('a-second:A second'));
  },
  get_driver_skills: async () => {
    await refusedAs('DRIVER_NOT_FOUND', 'GET', `drivers/${a.userIds.driver}/skills`)();
  },
  set_driver_skills: async () => {
    await refusedAs('DRIVER_NOT_FOUND', 'PUT', `drivers/${a.userIds.driver}/skills`, { skills: [] })();
  },
  get_order_required_skills: async () => {
    await refusedAs('ORDER_NOT_FOUND', 'GET', `orders/${orderOfA.id}/required-skills`)();
  },
  set_order_required_skills: async () => {
    const before = await orderAsA();
    await refusedAs('ORDER_NOT_FOUND', 'PUT', `orders/${orderOfA.id}/required-skills`, { skills: [] })();
    assert.deepEqual(await orderAsA(), before);
  },
  get_driver_registrations: async () => {
    await pendingRegistrationOfA();
    const answer = await api.get('/api/v1/client/driver-registrations', { token: adminOfB() });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body.registrations, []);
    assert.equal(answer.body.total, 0);
  },
  approve_driver_registration: registrationOfAStaysPending('approve'),
  reject_driver_registration: registrationOfAStaysPending('reject'),
  create_depot: async () => {
    const answer = await api.post(
      '/api/v1/client/depots',
      { name: 'B depot', lat: 1, lng: 1 },
      { token: adminOfB() },
    );
    assert.equal(answer.status, 200);
    const asA = await api.get('/api/v3/client/build-route/options?date=2026-11-03', { token: tokenOfA });
    assert.ok(asA.body.depots.every((d: { name: string }) => d.name !== 'B depot'));
  },
  set_driver_profile: async () => {
    const answer = await api.call('PUT', `/api/v1/client/drivers/${a.userIds.driver}/profile`, {
      token: adminOfB(),
      body: {
        capacity: { weight_grams: 1, volume_cm3: 1, count: 1 },
        shift: { start: '08:00', end: '09:00' },
      },
    });
    assert.equal(answer.status, 404);
    assert.equal(answer.body.error_code, 'DRIVER_NOT_FOUND');
  },
  get_drivers: async () => {
    const answer = await api.get('/api/v1/client/drivers', { token: adminOfB() });
    assert.deepEqual(
      answer.body.drivers.map((d: { id: number }) => d.id),
      [b.userIds.driver],
    );
  },
  get_driver_routes_today: async () => {
    const answer = await api.get(`/api/v1/client/drivers/${a.userIds.driver}/routes/today`, {
      token: adminOfB(),
    });
    assert.equal(answer.status, 404);
  },
  get_routes: async () => {
    const answer = await api.get('/api/v1/client/routes', { token: adminOfB() });
    assert.ok(answer.body.routes.every((r: { driver: { id: number } }) => r.driver.id !== a.userIds.driver));
  },
  get_route_detail: async () => {
    const answer = await api.get(`/api/v1/client/routes/${routeOfA}`, { token: adminOfB() });
    assert.equal(answer.status, 404);
    assert.equal(answer.body.error_code, 'ROUTE_NOT_FOUND');
  },
  get_dispatch_board: async () => {
    const asA = await api.get('/api/v1/client/dispatch/board?date=2026-11-04', { token: tokenOfA });
    assert.ok(
      asA.body.routes.some((r: { id: number }) => r.id === routeOfA),
      JSON.stringify(asA.body),
    );
    const answer = await api.get('/api/v1/client/dispatch/board?date=2026-11-04', { token: adminOfB() });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.ok(answer.body.routes.every((r: { id: number }) => r.id !== routeOfA));
    assert.ok(answer.body.exceptions.every((e: { order_id: number | null }) => e.order_id !== orderOfA.id));
  },
  get_my_routes: async () => {
    const answer = await api.get('/api/v1/driver/routes?date=2026-11-04', { token: tokensOfB.driver });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.routes, []);
  },
  start_route: driverOfBOnRouteOfA('start'),
  arrive_at_stop: driverOfBOnRouteOfA('stops/1/arrive'),
  complete_stop: driverOfBOnRouteOfA('stops/1/complete', { outcome: 'delivered' }),
  report_positions: driverOfBOnRouteOfA(
    'positions',
    { positions: [{ lat: 1, lng: 1, device_time: '2026-11-02T09:00:00Z' }] },
    { timed: false },
  ),
  finish_route: driverOfBOnRouteOfA('finish'),
  scan_pickup_package: async () => {
    const answer = await api.get(`/api/v1/driver/routes/${routeOfA}/packages/${orderOfA.tracking_number}`, {
      token: tokensOfB.driver,
    });
    assert.equal(answer.status, 404);
    assert.equal(answer.body.error_code, 'ROUTE_NOT_FOUND');
  },
  get_build_route_options: async () => {
    const answer = await api.get('/api/v3/client/build-route/options?date=2026-11-03', {
      token: adminOfB(),
    });
    assert.equal(answer.body.pool.orders, 0);
    assert.ok(answer.body.drivers.every((d: { id: number }) => d.id !== a.userIds.driver));
  },
  build_route: async () => {
    const answer = await api.post(
      '/api/v3/client/build-route',
      { date: '2026-11-04' },
      { token: adminOfB() },
    );
    assert.equal(answer.status, 200);
    assert.equal(answer.body.totals.orders, 0);
    assert.equal((await orderAsA()).status, 'HOLD');
  },
  create_vehicle: async () => {
    const answer = await api.post(
      '/api/v1/client/vehicles',
      { name: 'B van', capacity: { weight_grams: 1, volume_cm3: 1, count: 1 } },
      { token: adminOfB() },
    );
    assert.equal(answer.status, 200);
    const asA = await api.get('/api/v1/client/vehicles', { token: tokenOfA });
    assert.ok(asA.body.vehicles.every((v: { name: string }) => v.name !== 'B van'));
  },
  get_vehicles: async () => {
    const answer = await api.get('/api/v1/client/vehicles', { token: adminOfB() });
    assert.ok(answer.body.vehicles.every((v: { name: string }) => v.name === 'B van'));
  },
  ...Object.fromEntries(
    (
      [
        ['assign_order_to_route', 'POST', 'stops', { order_id: 1 }],
        ['move_route_stop', 'POST', 'stops/1/move', {}],
        ['remove_route_stop', 'DELETE', 'stops/1', undefined],
        ['resequence_route', 'POST', 'sequence', { optimize: true }],
        ['change_route_driver', 'PUT', 'driver', { driver_id: 1 }],
        ['change_route_vehicle', 'PUT', 'vehicle', { vehicle_id: null }],
        ['lock_route', 'POST', 'lock', {}],
        ['unlock_route', 'POST', 'unlock', {}],
      ] as const
    ).map(([name, method, path, body]) => [
      name,
      async () => {
        const answer = await api.call(method, `/api/v1/client/routes/${routeOfA}/${path}`, {
          token: adminOfB(),
          body,
        });
        assert.equal(answer.status, 404);
        assert.equal(answer.body.error_code, 'ROUTE_NOT_FOUND');
      },
    ]),
  ),
  get_dispatch_settings: async () => {
    const answer = await api.get('/api/v1/client/dispatch-settings', { token: adminOfB() });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.settings.preparation_minutes, 30, "A's settings are not B's");
  },
  update_dispatch_settings: async () => {
    const answer = await api.call('PUT', '/api/v1/client/dispatch-settings', {
      token: adminOfB(),
      body: { preparation_minutes: 90 },
    });
    assert.equal(answer.status, 200);
    const asA = await api.get('/api/v1/client/dispatch-settings', { token: tokenOfA });
    assert.equal(asA.body.settings.preparation_minutes, 30, "B's change leaves A's settings alone");
  },
  create_contractor_rule: async () => {
    const answer = await api.post(
      '/api/v1/client/contractor-rules',
      { contractor_company_id: a.contractorCompanyId, postal_prefixes: ['75'], valid_from: '2026-11-01' },
      { token: adminOfB() },
    );
    assert.equal(answer.status, 422);
    assert.equal(answer.body.error_code, 'CONTRACTOR_NOT_ENGAGED');
  },
  get_contractor_rules: async () => {
    for (const token of [adminOfB(), tokensOfB.contractor!]) {
      const answer = await api.get('/api/v1/client/contractor-rules', { token });
      assert.equal(answer.status, 200);
      assert.ok(answer.body.rules.every((rule: { id: number }) => rule.id !== ruleOfA));
    }
    const named = await api.get(`/api/v1/client/contractor-rules?business_id=${a.businessId}`, {
      token: tokensOfB.contractor,
    });
    assert.equal(named.status, 403);
  },
  delete_contractor_rule: async () => {
    const answer = await api.call('DELETE', `/api/v1/client/contractor-rules/${ruleOfA}`, {
      token: adminOfB(),
    });
    assert.equal(answer.status, 404);
    assert.equal(answer.body.error_code, 'CONTRACTOR_RULE_NOT_FOUND');
    const asA = await api.get('/api/v1/client/contractor-rules', { token: tokenOfA });
    assert.deepEqual(
      asA.body.rules.map((rule: { id: number }) => rule.id),
      [ruleOfA],
    );
  },
  get_broker_order_assignments: async () => {
    for (const token of [adminOfB(), tokensOfB.employee!, tokensOfB.contractor!]) {
      const answer = await api.get('/api/v1/broker-order-assignments', { token });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.total, 0);
    }
    const named = await api.get(`/api/v1/broker-order-assignments?business_id=${a.businessId}`, {
      token: tokensOfB.contractor,
    });
    assert.equal(named.status, 403);
  },
  assign_orders_to_broker: async () => {
    const foreignOrder = await api.post(
      '/api/v1/broker-order-assignments',
      { order_ids: [orderOfA.id], broker_id: b.userIds.contractor },
      { token: adminOfB() },
    );
    assert.equal(foreignOrder.body.assigned, 0);
    assert.match(foreignOrder.body.errors[0].message, /No order/);
    const ownOrder = await api.post(
      '/api/v1/client/orderCreate',
      { dropoff: { line1: 'B street' } },
      { token: adminOfB() },
    );
    const foreignBroker = await api.post(
      '/api/v1/broker-order-assignments',
      { order_ids: [ownOrder.body.order_id], broker_id: a.userIds.contractor },
      { token: adminOfB() },
    );
    assert.equal(foreignBroker.status, 422);
    assert.equal(foreignBroker.body.error_code, 'CONTRACTOR_NOT_FOUND');
    assert.equal(await activeBrokerOfA(), a.userIds.contractor);
  },
  revoke_broker_order_assignments: async () => {
    const answer = await api.post(
      '/api/v1/broker-order-assignments/revoke',
      { order_ids: [orderOfA.id] },
      { token: adminOfB() },
    );
    assert.equal(answer.body.revoked, 0);
    assert.equal(await activeBrokerOfA(), a.userIds.contractor);
  },
  release_broker_order_assignment: async () => {
    const own = await api.post(
      '/api/v1/broker-order-assignments/release',
      { order_id: orderOfA.id },
      { token: tokensOfB.contractor },
    );
    assert.equal(own.status, 400);
    assert.equal(own.body.error_code, 'ORDER_NOT_ASSIGNED_TO_YOU');
    const named = await api.post(
      '/api/v1/broker-order-assignments/release',
      { order_id: orderOfA.id, business_id: a.businessId },
      { token: tokensOfB.contractor },
    );
    assert.equal(named.status, 403);
    assert.equal(await activeBrokerOfA(), a.userIds.contractor);
  },
};
