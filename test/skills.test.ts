import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ClientError, GraphQLClient, gql } from 'graphql-request';
import { sql } from 'kysely';
import { createTenant, login, signedInDriversAtDepot, type Tenant } from './support/fixtures.ts';
import { type Client as Http, client as http } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

// Tenants live in Asia/Shanghai; the test clock stands at 2026-11-02 17:30 there.
const TOMORROW = '2026-11-03';
const DEPOT = { lat: 31.23, lng: 121.47 };

// Tool answers are read field by field; their shapes are checked by the output schemas.
// biome-ignore lint/suspicious/noExplicitAny: a structured tool answer, read as a test reads JSON
type Structured = Record<string, any>;

/** A business's skill catalogue, its drivers' skills and its orders' required skills, on every door. */
describe('skills', () => {
  let server: TestServer;
  let api: Http;
  let shop: Tenant;
  let other: Tenant;
  let admin: string;
  let employee: string;
  let otherAdmin: string;
  /** Two drivers with working profiles at one depot: the first will be refrigerated, the second not. */
  let cold: number;
  let plain: number;
  let otherDriver: number;
  const mcpClients: Client[] = [];

  const put = (path: string, body: unknown, token: string, headers: Record<string, string> = {}) =>
    api.call('PUT', `/api${path}`, { token, body, headers });
  const order = async (ref: string, token = admin) => {
    const created = await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: ref, scheduled_date: TOMORROW, dropoff: { line1: ref, lat: 31.24, lng: 121.48 } },
      { token },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return created.body.order_id as number;
  };
  const mcp = async (token: string) => {
    const connected = new Client({ name: 'skills-test', version: '1.0.0' });
    await connected.connect(
      new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    mcpClients.push(connected);
    return connected;
  };
  const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent: Structured };
  const graphql = (token: string) =>
    new GraphQLClient(`${server.baseUrl}/api/graphql`, { headers: { authorization: `Bearer ${token}` } });

  before(async () => {
    server = await startTestServer();
    api = http(server.baseUrl);
    shop = await createTenant(server.db, server.app.services, 'skills');
    other = await createTenant(server.db, server.app.services, 'skills-other');
    admin = await login(api, shop.emails.client_admin);
    employee = await login(api, shop.emails.employee);
    otherAdmin = await login(api, other.emails.client_admin);
    const shift = { start: '08:00', end: '22:00' };
    [cold, plain] = (
      await signedInDriversAtDepot(server, api, shop, admin, {
        depot: DEPOT,
        names: ['cold', 'plain'],
        shift,
      })
    ).map((driver) => driver.id) as [number, number];
    [otherDriver] = (
      await signedInDriversAtDepot(server, api, other, otherAdmin, { depot: DEPOT, names: ['b'], shift })
    ).map((driver) => driver.id) as [number];
  });
  after(async () => {
    for (const client of mcpClients) await client.close();
    await server.close();
  });

  it('keeps a catalogue per business: added, relabelled, listed, checked and localised', async () => {
    const empty = await api.get('/api/v1/client/skills', { token: admin });
    assert.deepEqual(empty.body, { result: true, skills: [] });

    const added = await put('/v1/client/skills/refrigerated', { label: 'Refrigerated' }, admin);
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.deepEqual(added.body, {
      result: true,
      created: true,
      skill: { code: 'refrigerated', label: 'Refrigerated' },
    });
    const relabelled = await put('/v1/client/skills/refrigerated', { label: 'Cold chain' }, admin);
    assert.equal(relabelled.body.created, false);
    assert.equal((await put('/v1/client/skills/hazmat', { label: 'Dangerous goods' }, admin)).status, 200);
    const listed = await api.get('/api/v1/client/skills', { token: employee });
    assert.deepEqual(listed.body.skills, [
      { code: 'hazmat', label: 'Dangerous goods' },
      { code: 'refrigerated', label: 'Cold chain' },
    ]);

    // A code is a slug; a label is not empty; both refused in the documented shape, in the caller's language.
    const badCode = await put('/v1/client/skills/Cold%20Chain', { label: 'x' }, admin, {
      'accept-language': 'fr',
    });
    assert.equal(badCode.status, 422);
    assert.equal(badCode.body.result, false);
    assert.equal(badCode.body.error_code, 'VALIDATION_FAILED');
    assert.equal(badCode.body.details.fields[0].field, 'code');
    assert.match(badCode.body.details.fields[0].message, /minuscules/);
    const noLabel = await put('/v1/client/skills/ok', { label: '  ' }, admin);
    assert.equal(noLabel.status, 422);
    assert.equal(noLabel.body.details.fields[0].field, 'label');

    // Employees read the catalogue; only the business's admin changes it.
    const byEmployee = await put('/v1/client/skills/forklift', { label: 'Forklift' }, employee);
    assert.equal(byEmployee.status, 403);
    assert.equal(byEmployee.body.error_code, 'FORBIDDEN');

    const unknown = await api.call('DELETE', '/api/v1/client/skills/forklift', {
      token: admin,
      headers: { 'accept-language': 'de' },
    });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error_code, 'SKILL_NOT_FOUND');
    assert.match(unknown.body.message, /Fähigkeit forklift/);
    assert.equal((await put('/v1/client/skills/forklift', { label: 'Forklift' }, admin)).status, 200);
    const removed = await api.call('DELETE', '/api/v1/client/skills/forklift', { token: admin });
    assert.deepEqual(removed.body, { result: true, deleted: 'forklift' });
  });

  it("sets a driver's skills from the catalogue only, and a profile saved without skills keeps them", async () => {
    const none = await api.get(`/api/v1/client/drivers/${cold}/skills`, { token: admin });
    assert.deepEqual(none.body, { result: true, driver_id: cold, skills: [] });

    const set = await put(
      `/v1/client/drivers/${cold}/skills`,
      { skills: ['refrigerated', 'refrigerated'] },
      admin,
    );
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.deepEqual(set.body.skills, [{ code: 'refrigerated', label: 'Cold chain' }]);

    const unknown = await put(
      `/v1/client/drivers/${cold}/skills`,
      { skills: ['refrigerated', 'crane'] },
      admin,
      {
        'accept-language': 'es',
      },
    );
    assert.equal(unknown.status, 422);
    assert.equal(unknown.body.error_code, 'SKILLS_NOT_IN_CATALOGUE');
    assert.deepEqual(unknown.body.details.unknown, ['crane']);
    assert.match(unknown.body.message, /crane/);
    assert.match(unknown.body.message, /catálogo/);

    // A driver account without a working profile has nowhere to hold skills yet.
    const noProfile = await put(`/v1/client/drivers/${shop.userIds.driver}/skills`, { skills: [] }, admin);
    assert.equal(noProfile.status, 409);
    assert.equal(noProfile.body.error_code, 'DRIVER_PROFILE_REQUIRED');
    assert.equal(
      (await api.get(`/api/v1/client/drivers/${shop.userIds.driver}/skills`, { token: admin })).body.skills
        .length,
      0,
    );

    // Changing the vehicle later, without naming skills, leaves them as they are.
    const drivers = await api.get('/api/v1/client/drivers', { token: admin });
    const depotId = drivers.body.drivers.find((driver: { id: number }) => driver.id === cold).profile
      .depot_id;
    const profile = await put(
      `/v1/client/drivers/${cold}/profile`,
      {
        depot_id: depotId,
        capacity: { weight_grams: 500_000, volume_cm3: 5_000_000, count: 100 },
        shift: { start: '08:00', end: '22:00' },
        vehicle_type: 'reefer',
      },
      admin,
    );
    assert.equal(profile.status, 200, JSON.stringify(profile.body));
    assert.deepEqual(profile.body.driver.profile.skills, ['refrigerated']);
  });

  it('gives an order only to a driver holding every skill it requires, as set through the skills operations', async () => {
    const chilled = await order('CHILLED');
    const dangerous = await order('DANGEROUS');
    for (let n = 0; n < 3; n++) await order(`PARCEL-${n}`);
    const needs = await put(
      `/v1/client/orders/${chilled}/required-skills`,
      { skills: ['refrigerated'] },
      admin,
    );
    assert.equal(needs.status, 200, JSON.stringify(needs.body));
    assert.deepEqual(needs.body, {
      result: true,
      order_id: chilled,
      skills: [{ code: 'refrigerated', label: 'Cold chain' }],
    });
    assert.equal(
      (await put(`/v1/client/orders/${dangerous}/required-skills`, { skills: ['hazmat'] }, employee)).status,
      200,
    );
    const unknown = await put(`/v1/client/orders/${chilled}/required-skills`, { skills: ['crane'] }, admin);
    assert.equal(unknown.status, 422);
    assert.equal(unknown.body.error_code, 'SKILLS_NOT_IN_CATALOGUE');
    const detail = await api.get(`/api/v1/client/orders/${chilled}`, { token: admin });
    assert.deepEqual(detail.body.order.required_skills, ['refrigerated']);

    const built = await api.post(
      '/api/v3/client/build-route',
      { date: TOMORROW, time_limit_ms: 300 },
      { token: admin },
    );
    assert.equal(built.status, 200, JSON.stringify(built.body));
    const routeOf = (orderId: number) =>
      built.body.routes.find((route: { stops: Array<{ order_id: number }> }) =>
        route.stops.some((stop) => stop.order_id === orderId),
      );
    assert.equal(routeOf(chilled)?.driver.id, cold, 'only the refrigerated driver carries the chilled order');
    assert.ok(
      built.body.routes.every((route: { driver: { id: number } }) => [cold, plain].includes(route.driver.id)),
    );
    assert.deepEqual(
      built.body.unassigned.map((u: { order_id: number; reason: string }) => [u.order_id, u.reason]),
      [[dangerous, 'skills']],
      'no driver holds hazmat',
    );
  });

  it('keeps a planned order true to its route, and a finished one as it was', async () => {
    const chilled = (await api.get('/api/v1/client/orders/find?order_ref=CHILLED', { token: admin })).body
      .order;
    assert.equal(chilled.status, 'PLANNED');
    const lacking = await put(
      `/v1/client/orders/${chilled.id}/required-skills`,
      { skills: ['refrigerated', 'hazmat'] },
      admin,
    );
    assert.equal(lacking.status, 409);
    assert.equal(lacking.body.error_code, 'ROUTE_DRIVER_LACKS_SKILLS');
    assert.deepEqual(lacking.body.details, {
      route_id: chilled.route_id,
      driver_id: cold,
      missing: ['hazmat'],
    });
    // What the route's driver holds, the order may require.
    const held = await put(
      `/v1/client/orders/${chilled.id}/required-skills`,
      { skills: ['refrigerated'] },
      admin,
    );
    assert.equal(held.status, 200, JSON.stringify(held.body));

    const dangerous = (await api.get('/api/v1/client/orders/find?order_ref=DANGEROUS', { token: admin })).body
      .order;
    assert.equal(
      (await api.post(`/api/v1/client/orders/${dangerous.id}/cancel`, {}, { token: admin })).status,
      200,
    );
    const cancelled = await put(`/v1/client/orders/${dangerous.id}/required-skills`, { skills: [] }, admin);
    assert.equal(cancelled.status, 409);
    assert.equal(cancelled.body.error_code, 'ORDER_SKILLS_LOCKED');
    const kept = await api.get(`/api/v1/client/orders/${dangerous.id}/required-skills`, { token: admin });
    assert.deepEqual(kept.body.skills, [{ code: 'hazmat', label: 'Dangerous goods' }]);
  });

  it('refuses to remove a skill in use, naming its drivers and open orders', async () => {
    const chilled = (await api.get('/api/v1/client/orders/find?order_ref=CHILLED', { token: admin })).body
      .order;
    const inUse = await api.call('DELETE', '/api/v1/client/skills/refrigerated', { token: admin });
    assert.equal(inUse.status, 409);
    assert.equal(inUse.body.error_code, 'SKILL_IN_USE');
    assert.deepEqual(inUse.body.details, {
      drivers: 1,
      orders: 1,
      driver_ids: [cold],
      order_ids: [chilled.id],
    });
    assert.match(inUse.body.message, /refrigerated/);
    // Only a cancelled order still names hazmat: it goes, and the cancelled order reads it without a label.
    const dangerous = (await api.get('/api/v1/client/orders/find?order_ref=DANGEROUS', { token: admin })).body
      .order;
    assert.equal((await api.call('DELETE', '/api/v1/client/skills/hazmat', { token: admin })).status, 200);
    const orphan = await api.get(`/api/v1/client/orders/${dangerous.id}/required-skills`, { token: admin });
    assert.deepEqual(orphan.body.skills, [{ code: 'hazmat', label: null }]);
    assert.equal((await put('/v1/client/skills/hazmat', { label: 'Dangerous goods' }, admin)).status, 200);
  });

  it("keeps each business's skills, drivers and orders to itself", async () => {
    const shopOrder = await order('PRIVATE');
    await put('/v1/client/skills/oversize', { label: 'Oversize' }, admin);
    const notTheirs = [
      await api.get(`/api/v1/client/drivers/${cold}/skills`, { token: otherAdmin }),
      await put(`/v1/client/drivers/${cold}/skills`, { skills: [] }, otherAdmin),
    ];
    for (const answer of notTheirs) {
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error_code, 'DRIVER_NOT_FOUND');
    }
    for (const answer of [
      await api.get(`/api/v1/client/orders/${shopOrder}/required-skills`, { token: otherAdmin }),
      await put(`/v1/client/orders/${shopOrder}/required-skills`, { skills: [] }, otherAdmin),
    ]) {
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error_code, 'ORDER_NOT_FOUND');
    }
    const theirSkill = await api.call('DELETE', '/api/v1/client/skills/oversize', { token: otherAdmin });
    assert.equal(theirSkill.status, 404);
    assert.equal(theirSkill.body.error_code, 'SKILL_NOT_FOUND');
    // Another business's code is not in this one's catalogue.
    const borrowed = await put(
      `/v1/client/drivers/${otherDriver}/skills`,
      { skills: ['oversize'] },
      otherAdmin,
    );
    assert.equal(borrowed.status, 422);
    assert.equal(borrowed.body.error_code, 'SKILLS_NOT_IN_CATALOGUE');
    assert.deepEqual((await api.get('/api/v1/client/skills', { token: otherAdmin })).body.skills, []);
    assert.deepEqual(
      (await api.get(`/api/v1/client/orders/${shopOrder}/required-skills`, { token: admin })).body.skills,
      [],
    );
  });

  it('answers the same over GraphQL', async () => {
    const client = graphql(admin);
    const catalogue = await client.request<{
      skills: { skills: Array<{ code: string; label: string }> };
    }>(gql`
      {
        skills {
          result
          skills {
            code
            label
          }
        }
      }
    `);
    assert.ok(catalogue.skills.skills.some((skill) => skill.code === 'refrigerated'));
    const orderId = await order('GRAPHQL');
    const set = await client.request<{
      setOrderRequiredSkills: { order_id: number; skills: Array<{ code: string }> };
    }>(
      gql`
        mutation Set($orderId: Int!, $skills: [String!]!) {
          setOrderRequiredSkills(order_id: $orderId, skills: $skills) {
            order_id
            skills {
              code
              label
            }
          }
        }
      `,
      { orderId, skills: ['oversize'] },
    );
    assert.deepEqual(set.setOrderRequiredSkills, {
      order_id: orderId,
      skills: [{ code: 'oversize', label: 'Oversize' }],
    });
    const driver = await client.request<{ driverSkills: { skills: Array<{ code: string }> } }>(
      gql`
        query Driver($driverId: Int!) {
          driverSkills(driver_id: $driverId) {
            skills {
              code
            }
          }
        }
      `,
      { driverId: cold },
    );
    assert.deepEqual(driver.driverSkills.skills, [{ code: 'refrigerated' }]);
    const saved = await client.request<{ saveSkill: { created: boolean } }>(gql`
      mutation {
        saveSkill(code: "tail-lift", label: "Tail lift") {
          created
        }
      }
    `);
    assert.equal(saved.saveSkill.created, true);

    const refused = await graphql(otherAdmin)
      .request(
        gql`
          query Order($orderId: Int!) {
            orderRequiredSkills(order_id: $orderId) {
              skills {
                code
              }
            }
          }
        `,
        { orderId },
      )
      .catch((error: unknown) => error);
    assert.ok(refused instanceof ClientError, String(refused));
    assert.equal(refused.response.errors?.[0]?.extensions?.error_code, 'ORDER_NOT_FOUND');
  });

  it('started each catalogue from the codes its drivers and open orders used, when they have the form of a code', async () => {
    const seeded = await createTenant(server.db, server.app.services, 'skills-seeded');
    const token = await login(api, seeded.emails.client_admin);
    const [driver] = await signedInDriversAtDepot(server, api, seeded, token, {
      depot: DEPOT,
      names: ['seed'],
      shift: { start: '08:00', end: '22:00' },
    });
    await put(
      `/v1/client/drivers/${driver!.id}/profile`,
      {
        capacity: { weight_grams: 1000, volume_cm3: 1000, count: 10 },
        shift: { start: '08:00', end: '22:00' },
        skills: ['fridge', 'Not A Code'],
      },
      token,
    );
    const open = await order('SEED-OPEN', token);
    const cancelled = await order('SEED-CANCELLED', token);
    for (const [id, skills] of [
      [open, ['lift']],
      [cancelled, ['old']],
    ] as const) {
      await server.db
        .updateTable('orders')
        .set({ required_skills: [...skills] })
        .where('id', '=', id)
        .execute();
    }
    await api.post(`/api/v1/client/orders/${cancelled}/cancel`, {}, { token });
    const migration = await readFile(new URL('../migrations/0033_skills.sql', import.meta.url), 'utf8');
    const seed = migration.slice(migration.indexOf('INSERT INTO skills'));
    // The seed runs again on this database's rows, in a transaction rolled back afterwards.
    const codes = await server.db
      .transaction()
      .execute(async (trx) => {
        await trx.deleteFrom('skills').execute();
        await sql.raw(seed).execute(trx);
        const rows = await trx
          .selectFrom('skills')
          .select(['code', 'label'])
          .where('business_id', '=', seeded.businessId)
          .orderBy('code')
          .execute();
        throw Object.assign(new Error('rolled back'), { rows });
      })
      .catch((error: { rows?: unknown }) => error.rows);
    assert.deepEqual(codes, [
      { code: 'fridge', label: 'fridge' },
      { code: 'lift', label: 'lift' },
    ]);
  });

  it('gives agents the reads, and the order write, as tools of the user server', async () => {
    const agent = await mcp(admin);
    const { tools } = await agent.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of [
      'list_skills',
      'get_driver_skills',
      'get_order_required_skills',
      'set_order_required_skills',
    ])
      assert.ok(names.includes(name), name);
    // The catalogue and a driver's skills are set by people, as a driver's profile is.
    assert.ok(!names.includes('save_skill') && !names.includes('set_driver_skills'));

    const catalogue = await call(agent, 'list_skills');
    assert.equal(catalogue.isError, undefined);
    assert.ok(
      catalogue.structuredContent.skills.some((skill: { code: string }) => skill.code === 'tail-lift'),
    );
    const driver = await call(agent, 'get_driver_skills', { driver_id: cold });
    assert.deepEqual(driver.structuredContent.skills, [{ code: 'refrigerated', label: 'Cold chain' }]);
    const orderId = await order('AGENT');
    const set = await call(agent, 'set_order_required_skills', { order_id: orderId, skills: ['tail-lift'] });
    assert.equal(set.isError, undefined, JSON.stringify(set.content));
    const read = await call(agent, 'get_order_required_skills', { order_id: orderId });
    assert.deepEqual(read.structuredContent.skills, [{ code: 'tail-lift', label: 'Tail lift' }]);
    const unknown = await call(agent, 'set_order_required_skills', { order_id: orderId, skills: ['crane'] });
    assert.equal(unknown.isError, true);
    assert.equal(unknown.structuredContent.error_code, 'SKILLS_NOT_IN_CATALOGUE');

    const outsider = await mcp(otherAdmin);
    const foreign = await call(outsider, 'get_order_required_skills', { order_id: orderId });
    assert.equal(foreign.isError, true);
    assert.equal(foreign.structuredContent.error_code, 'ORDER_NOT_FOUND');
    const foreignDriver = await call(outsider, 'get_driver_skills', { driver_id: cold });
    assert.equal(foreignDriver.structuredContent.error_code, 'DRIVER_NOT_FOUND');
  });
});
