import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { DESKTOP, launchBrowser, signedInPage } from './support/browser.ts';
import { createTenant, login, PASSWORD, signedInDriversAtDepot, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startInstance, startTestServer, type TestInstance, type TestServer } from './support/server.ts';

/** 07:00 on 3 November 2026 in Shanghai, the tenant's time zone: the console opens on that day. */
const SEVEN_AM = new Date('2026-11-02T23:00:00Z');
const DAY = '2026-11-03';
const DEPOT = { lat: 31.2304, lng: 121.4737 };

interface Route {
  id: number;
  driver: { id: number; name: string } | null;
  locked: boolean;
  plan_version: number;
  distance_meters: number;
  stops: Array<{ order_id: number; status: string }>;
}

/**
 * The dispatcher's plan edits in the console, in a real (headless) browser, as a person makes
 * them: by drag and drop and by keyboard, each checked through the API and seen live by a second
 * dispatcher's console without a reload.
 */
describe('dispatch console: plan edits', () => {
  let server: TestServer;
  let served: TestInstance;
  let api: Client;
  let browser: Browser;
  let tenant: Tenant;
  let admin: string;
  let drivers: Array<{ id: number; token: string }>;
  let page: Page;
  /** The second dispatcher's console, open all along. */
  let watcher: Page;
  const errors: string[] = [];
  /** Order ids by reference. */
  const orders = new Map<string, number>();
  let fleetId: number;
  let vanId: number;

  const route = async (id: number): Promise<Route> => {
    const answer = await api.get(`/api/v1/client/routes/${id}`, { token: admin });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.route;
  };
  const dayRoutes = async (): Promise<Route[]> =>
    (await api.get(`/api/v1/client/routes?date=${DAY}`, { token: admin })).body.routes;
  const order = async (id: number) =>
    (await api.get(`/api/v1/client/orders/${id}`, { token: admin })).body.order;
  const ids = (r: Route) => r.stops.map((stop) => stop.order_id);
  /** Polls the API until `check` holds (a write the console sent lands a moment after the click). */
  const until = async (what: string, check: () => Promise<boolean>) => {
    for (let tries = 0; tries < 100; tries++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.fail(`never: ${what}`);
  };
  const signedIn = async (email: string): Promise<Page> => {
    const opened = await signedInPage(browser, served, { email, password: PASSWORD }, DESKTOP, (watched) =>
      watched.on('pageerror', (error) => errors.push(`${email}: ${error.message}`)),
    );
    await opened.waitForSelector('body[data-drawn]');
    return opened;
  };
  const routeItem = (on: Page, id: number): Locator => on.locator(`#routes > li[data-route="${id}"]`);
  /** Opens a route's stops in a console's list (the route chosen). */
  const showStops = async (on: Page, id: number) => {
    if ((await routeItem(on, id).locator('ol.stops').count()) === 0) {
      await routeItem(on, id).locator('.route-head button.link').click();
    }
    await routeItem(on, id).locator('ol.stops').waitFor();
  };
  const stopsShown = (on: Page, id: number) =>
    routeItem(on, id)
      .locator('ol.stops > li')
      .evaluateAll((items) => items.map((item) => Number(item.getAttribute('data-stop'))));
  /** Waits for the second console to show what `check` reads from its page. */
  const watcherSees = async (what: string, check: () => Promise<boolean>) =>
    until(`the watcher sees ${what}`, check);
  const routeActions = async (id: number) => {
    await routeItem(page, id).locator('button[data-actions]').click();
    await page.waitForSelector('dialog[open]');
  };
  const notice = () => page.locator('.notice span').innerText();
  const dialogClosed = () => page.waitForSelector('dialog[open]', { state: 'detached' });

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'console-plan');
    admin = await login(api, tenant.emails.client_admin);
    server.clock.set(SEVEN_AM);
    drivers = await signedInDriversAtDepot(server, api, tenant, admin, {
      depot: DEPOT,
      names: ['east', 'west', 'spare'],
      shift: { start: '08:00', end: '18:00' },
    });
    const create = async (
      ref: string,
      at: { lat: number; lng: number },
      window = { start: '09:00', end: '17:00' },
    ) => {
      const created = await api.post(
        '/api/v1/client/orderCreate',
        {
          order_ref: ref,
          scheduled_date: DAY,
          time_window: window,
          dropoff: {
            name: ref,
            phone: '+86 21 5555 1000',
            line1: ref,
            city: 'Shanghai',
            country: 'CN',
            ...at,
          },
        },
        { token: admin },
      );
      assert.equal(created.status, 200, JSON.stringify(created.body));
      orders.set(ref, created.body.orders[0].id);
    };
    // Four doors north of the depot, four east: a route each.
    for (let n = 1; n <= 4; n++) await create(`N${n}`, { lat: DEPOT.lat + 0.006 * n, lng: DEPOT.lng });
    for (let n = 1; n <= 4; n++) await create(`E${n}`, { lat: DEPOT.lat, lng: DEPOT.lng + 0.006 * n });
    const built = await api.post(
      '/api/v3/client/build-route',
      {
        date: DAY,
        driver_ids: drivers.slice(0, 2).map((driver) => driver.id),
        objective: 'balanced',
        time_limit_ms: 300,
      },
      { token: admin },
    );
    assert.equal(built.status, 200, JSON.stringify(built.body).slice(0, 400));
    assert.equal(built.body.routes.length, 2, JSON.stringify(built.body).slice(0, 400));
    const streetOf = (ref: string) =>
      built.body.routes.findIndex((r: Route) => r.stops.some((stop) => stop.order_id === orders.get(ref)));
    assert.deepEqual(
      [streetOf('N1'), streetOf('N4'), streetOf('E1')].map((at) => at === streetOf('N1')),
      [true, true, false],
      'a route per street',
    );
    // Late orders: one near, and one far out of town whose window closes before a van gets there.
    await create('LATE', { lat: DEPOT.lat + 0.003, lng: DEPOT.lng + 0.003 });
    await create('FAR', { lat: DEPOT.lat + 0.3, lng: DEPOT.lng + 0.3 }, { start: '08:00', end: '08:05' });
    const fleet = await api.post('/api/v1/client/fleets', { name: 'Night riders' }, { token: admin });
    assert.equal(fleet.status, 200, JSON.stringify(fleet.body));
    fleetId = fleet.body.fleet.id;
    const van = await api.post(
      '/api/v1/client/vehicles',
      { name: 'Big van', capacity: { weight_grams: 900_000, volume_cm3: 9_000_000, count: 200 } },
      { token: admin },
    );
    assert.equal(van.status, 200, JSON.stringify(van.body));
    vanId = van.body.vehicle.id;
    served = await startInstance(server);
    browser = await launchBrowser();
    page = await signedIn(tenant.emails.client_admin);
    watcher = await signedIn(tenant.emails.employee);
  });
  afterEach(async () => {
    // No page error, and no word a page lacks (⟦key⟧), in either console.
    assert.deepEqual(errors, []);
    for (const open of [page, watcher]) assert.doesNotMatch(await open.locator('body').innerText(), /⟦/);
  });
  after(async () => {
    await browser?.close();
    await served?.close();
    await server?.close();
  });

  /** The route holding an order now. */
  const holding = async (ref: string) => {
    const found = (await dayRoutes()).find((r) => ids(r).includes(orders.get(ref)!));
    assert.ok(found, `${ref} is on a route`);
    return found;
  };

  it('assigns an unplanned order by dragging it onto a route, and takes it back with Undo', async () => {
    const late = orders.get('LATE')!;
    const north = await holding('N1');
    await page.locator(`#unplanned li[data-order="${late}"]`).dragTo(routeItem(page, north.id));
    await until('LATE is on the north route', async () => (await order(late)).route_id === north.id);
    assert.ok(ids(await route(north.id)).includes(late));
    await watcherSees(
      'LATE leave the unplanned orders',
      async () => (await watcher.locator(`#unplanned li[data-order="${late}"]`).count()) === 0,
    );
    // Undo: the order goes back to the pool, in both consoles.
    await page.locator('.notice button').click();
    await until('LATE is waiting again', async () => (await order(late)).status === 'NEW_ORDER');
    assert.ok(!ids(await route(north.id)).includes(late));
    await watcherSees(
      'LATE among the unplanned orders again',
      async () => (await watcher.locator(`#unplanned li[data-order="${late}"]`).count()) === 1,
    );
  });

  it('assigns an unplanned order by keyboard: its Assign button, the route chosen in the dialog', async () => {
    const late = orders.get('LATE')!;
    const east = await holding('E1');
    await page.locator(`#unplanned li[data-order="${late}"] button.small`).focus();
    await page.keyboard.press('Enter');
    const select = page.locator('#place-route');
    await select.waitFor();
    await select.focus();
    for (let presses = 0; presses < 5 && (await select.inputValue()) !== String(east.id); presses++) {
      await page.keyboard.press('ArrowDown');
    }
    assert.equal(await select.inputValue(), String(east.id), 'the route chosen with the arrow keys');
    await page.locator('dialog[open] button[type=submit]').focus();
    await page.keyboard.press('Enter');
    await until('LATE is on the east route', async () => (await order(late)).route_id === east.id);
    await watcherSees(
      'LATE leave the unplanned orders',
      async () => (await watcher.locator(`#unplanned li[data-order="${late}"]`).count()) === 0,
    );
  });

  it('moves a stop within its route by dragging it to the front', async () => {
    const north = await holding('N1');
    const pending = north.stops.filter((stop) => stop.status === 'pending');
    const last = pending.at(-1)!.order_id;
    await showStops(page, north.id);
    await showStops(watcher, north.id);
    await routeItem(page, north.id)
      .locator(`li[data-stop="${last}"]`)
      .dragTo(routeItem(page, north.id).locator(`li[data-stop="${pending[0]!.order_id}"]`));
    await until('the last stop is first', async () => ids(await route(north.id))[0] === last);
    const expected = ids(await route(north.id));
    await watcherSees(
      'the new order of the stops',
      async () => JSON.stringify(await stopsShown(watcher, north.id)) === JSON.stringify(expected),
    );
  });

  it('moves a stop to another route with its Move button', async () => {
    const north = await holding('N1');
    const east = await holding('E1');
    const moved = orders.get('N4')!;
    await showStops(page, north.id);
    await routeItem(page, north.id).locator(`li[data-stop="${moved}"] button.secondary`).click();
    await page.locator('#place-route').selectOption(String(east.id));
    await page.locator('dialog[open] button[type=submit]').click();
    await until('N4 is on the east route', async () => (await order(moved)).route_id === east.id);
    assert.ok(!ids(await route(north.id)).includes(moved));
    await watcherSees(
      'N4 leave the north route',
      async () => !(await stopsShown(watcher, north.id)).includes(moved),
    );
  });

  it('locks a route from its actions', async () => {
    const north = await holding('N1');
    await routeActions(north.id);
    await page.locator('dialog[open] .actions button', { hasText: 'Lock' }).first().click();
    await until('the north route is locked', async () => (await route(north.id)).locked);
    await dialogClosed();
    await watcherSees('the lock', async () =>
      /Locked/.test(await routeItem(watcher, north.id).locator('.route-head .meta').innerText()),
    );
  });

  it('optimises a route from its actions', async () => {
    const east = await holding('E1');
    // Scrambled through the API first: every other stop, then the rest (a zigzag along the street).
    const zigzag = [
      ...east.stops.filter((_, at) => at % 2 === 1),
      ...east.stops.filter((_, at) => at % 2 === 0),
    ];
    const scrambled = await api.post(
      `/api/v1/client/routes/${east.id}/sequence`,
      { stops: zigzag.map((stop) => ({ order_id: stop.order_id })), confirm_violations: true },
      { token: admin },
    );
    assert.equal(scrambled.status, 200, JSON.stringify(scrambled.body));
    const before = scrambled.body.routes[0];
    await showStops(watcher, east.id);
    await watcherSees(
      'the scrambled order',
      async () => JSON.stringify(await stopsShown(watcher, east.id)) === JSON.stringify(ids(before)),
    );
    await routeActions(east.id);
    await page.locator('dialog[open] .actions button', { hasText: 'Optimise' }).click();
    await until(
      'the east route is optimised',
      async () => (await route(east.id)).plan_version > before.plan_version,
    );
    const optimised = await route(east.id);
    const again = await api.post(
      `/api/v1/client/routes/${east.id}/sequence`,
      { optimize: true },
      { token: admin, headers: { 'x-dry-run': '1' } },
    );
    assert.deepEqual(ids(again.body.routes[0]), ids(optimised), 'optimising again changes nothing');
    assert.ok(optimised.distance_meters < before.distance_meters, 'shorter than the zigzag');
    await watcherSees(
      'the optimised order',
      async () => JSON.stringify(await stopsShown(watcher, east.id)) === JSON.stringify(ids(optimised)),
    );
  });

  it("changes a route's driver from its actions", async () => {
    const east = await holding('E1');
    const spare = drivers[2]!.id;
    await routeActions(east.id);
    await page.locator('#route-driver').selectOption(String(spare));
    await page.locator('dialog[open] button', { hasText: 'Change driver' }).click();
    await until('the spare drives the east route', async () => (await route(east.id)).driver?.id === spare);
    const name = (await route(east.id)).driver!.name;
    await watcherSees('the new driver', async () =>
      (await routeItem(watcher, east.id).locator('.route-head').innerText()).includes(name),
    );
  });

  it("changes a route's vehicle from its actions, and back with Undo", async () => {
    const east = await holding('E1');
    const vehicleOf = async () => {
      const board = await api.get(`/api/v1/client/dispatch/board?date=${DAY}`, { token: admin });
      return board.body.routes.find((r: { id: number }) => r.id === east.id).vehicle_id as number | null;
    };
    assert.equal(await vehicleOf(), null, "the driver's own");
    await routeActions(east.id);
    await page.locator('#route-vehicle').selectOption(String(vanId));
    await page.locator('dialog[open] button', { hasText: 'Change vehicle' }).click();
    await until('the east route drives the van', async () => (await vehicleOf()) === vanId);
    await dialogClosed();
    await page.locator('.notice button').click();
    await until("the east route drives its driver's own again", async () => (await vehicleOf()) === null);
  });

  it("publishes a route to a fleet's board and takes it back", async () => {
    const east = await holding('E1');
    await routeActions(east.id);
    await page.locator('#route-fleet').selectOption(String(fleetId));
    await page.locator('dialog[open] button', { hasText: 'Publish' }).click();
    await until('the east route is on the board', async () => (await route(east.id)).driver === null);
    const board = await api.get(`/api/v1/client/fleets/${fleetId}/board?date=${DAY}`, { token: admin });
    assert.deepEqual(
      board.body.routes.map((entry: { route_id: number; state: string }) => [entry.route_id, entry.state]),
      [[east.id, 'open']],
    );
    const onBoard = (on: Page) => on.locator(`#fleet-boards li[data-board-route="${east.id}"]`);
    await watcherSees(
      'the route on the fleet board, not among the driven',
      async () => (await onBoard(watcher).count()) === 1 && (await routeItem(watcher, east.id).count()) === 0,
    );
    assert.match(await onBoard(watcher).innerText(), /Night riders/);
    await onBoard(page).locator('button').click();
    await until('the east route is back with its driver', async () => (await route(east.id)).driver !== null);
    assert.equal((await route(east.id)).driver!.id, drivers[2]!.id, 'back to the driver it had');
    await watcherSees(
      'the route driven again',
      async () => (await onBoard(watcher).count()) === 0 && (await routeItem(watcher, east.id).count()) === 1,
    );
  });

  it('shows the rules an edit breaks, and makes it only once confirmed', async () => {
    const far = orders.get('FAR')!;
    const east = await holding('E1');
    const assign = async () => {
      await page.locator(`#unplanned li[data-order="${far}"] button.small`).click();
      await page.locator('#place-route').selectOption(String(east.id));
      await page.locator('dialog[open] button[type=submit]').click();
      await page.waitForSelector('dialog[open] ul.violations li');
    };
    await assign();
    assert.match(
      await page.locator('dialog[open] ul.violations').innerText(),
      /FAR arrives \d+ min after its window ends/,
    );
    await page.locator('dialog[open] button.secondary').click();
    await dialogClosed();
    assert.equal((await order(far)).status, 'NEW_ORDER', 'not made when not confirmed');
    assert.ok(!ids(await route(east.id)).includes(far));
    await assign();
    await page.locator('dialog[open] button', { hasText: 'Make the change anyway' }).click();
    await until('FAR is on the east route', async () => (await order(far)).route_id === east.id);
    await watcherSees(
      'FAR leave the unplanned orders',
      async () => (await watcher.locator(`#unplanned li[data-order="${far}"]`).count()) === 0,
    );
  });

  it('builds the day again, keeping the locked route as it is', async () => {
    const locked = await holding('N1');
    assert.equal(locked.locked, true);
    await page.locator('.filters button.secondary', { hasText: 'Build the day again' }).click();
    await page.locator('dialog[open] button[type=submit]').click();
    await until('the day is built again', async () => /Day built again/.test(await notice()));
    const after = await route(locked.id);
    assert.deepEqual(ids(after), ids(locked), "the locked route's stops are as they were");
    const routes = await dayRoutes();
    await watcherSees('the rebuilt day', async () => {
      const shown = await watcher
        .locator('#routes > li[data-route]')
        .evaluateAll((items) => items.map((item) => Number(item.getAttribute('data-route'))));
      return JSON.stringify(shown.sort()) === JSON.stringify(routes.map((r) => r.id).sort());
    });
    assert.equal(await routeItem(watcher, locked.id).count(), 1);
  });

  it('refuses an edit decided on a stale view, saying the plan changed', async () => {
    const north = await holding('N1');
    const moved = north.stops.find((stop) => stop.status === 'pending')!.order_id;
    await showStops(page, north.id);
    // The dispatcher opens the Move dialog on the route as drawn...
    await routeItem(page, north.id).locator(`li[data-stop="${moved}"] button.secondary`).click();
    await page.locator('#place-route').waitFor();
    // ... meanwhile someone else unlocks it, and the live board redraws it...
    const unlocked = await api.post(`/api/v1/client/routes/${north.id}/unlock`, {}, { token: admin });
    assert.equal(unlocked.status, 200, JSON.stringify(unlocked.body));
    await until(
      'the console draws the route unlocked',
      async () => !/Locked/.test(await routeItem(page, north.id).locator('.route-head .meta').innerText()),
    );
    const before = await route(north.id);
    // ... then the dispatcher makes the move they decided on: refused, nothing changed.
    await page.locator('#place-position').fill('3');
    await page.locator('dialog[open] button[type=submit]').click();
    await until('the console says the plan changed', async () =>
      /The plan changed since you looked/.test(await notice()),
    );
    assert.deepEqual(await route(north.id), before, 'nothing changed');
    // The same precondition through the console's own mount of the API, as its person.
    const refused = await page.evaluate(
      async ({ id, version }) => {
        // In the page: its document (the test's types have no DOM).
        const inPage = globalThis as unknown as {
          document: { getElementById(id: string): { textContent: string } };
        };
        const data = JSON.parse(inPage.document.getElementById('app-data').textContent) as { csrf: string };
        const answer = await fetch(`/dispatch/api/v1/client/routes/${id}/lock`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': data.csrf },
          body: JSON.stringify({ expected_plan_version: version }),
        });
        return { status: answer.status, body: (await answer.json()) as { error_code: string } };
      },
      { id: north.id, version: before.plan_version - 1 },
    );
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error_code, 'CONCURRENT_UPDATE');
    assert.equal((await route(north.id)).locked, false, 'not locked');
  });
});
