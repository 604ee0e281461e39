import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GraphQLClient, gql } from 'graphql-request';
import { createTenant, issuedToken, login, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

describe('address book', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;
  let customer: string;

  const save = (body: Record<string, unknown>, token = admin) =>
    api.post('/api/v1/client/addresses', body, { token });
  const search = (q: string, token = admin) =>
    api.get(`/api/v1/client/addresses/search?q=${encodeURIComponent(q)}`, { token });

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'addresses');
    admin = await login(api, tenant.emails.client_admin);
    customer = await login(api, tenant.emails.customer);
  });
  after(() => server.close());

  it('saves, changes, lists and deletes addresses of the business and of a customer', async () => {
    const created = await save({
      label: 'Head office',
      name: 'Reception',
      line1: '12 Rue de Rivoli',
      postal_code: '75001',
      city: 'Paris',
      country: 'FR',
      lat: 48.8606,
      lng: 2.3376,
      delivery_notes: 'Ring twice',
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.address.customer_id, null);
    const id = created.body.address.id;
    const changed = await api.call('PATCH', `/api/v1/client/addresses/${id}`, {
      token: admin,
      body: { delivery_notes: 'Ring once' },
    });
    assert.equal(changed.body.address.delivery_notes, 'Ring once');
    assert.equal(changed.body.address.line1, '12 Rue de Rivoli');
    // The customer's own book is its own; staff reach it by naming the customer.
    const own = await save({ label: 'Home', line1: '3 Avenue Foch', city: 'Lyon' }, customer);
    assert.equal(own.body.address.customer_id, tenant.userIds.customer);
    const asCustomer = await api.get('/api/v1/client/addresses', { token: customer });
    assert.deepEqual(
      asCustomer.body.addresses.map((address: { label: string }) => address.label),
      ['Home'],
    );
    const ofCustomer = await api.get(`/api/v1/client/addresses?customer_id=${tenant.userIds.customer}`, {
      token: admin,
    });
    assert.equal(ofCustomer.body.total, 1);
    const notACustomer = await api.get(`/api/v1/client/addresses?customer_id=${tenant.userIds.driver}`, {
      token: admin,
    });
    assert.equal(notACustomer.body.error_code, 'CUSTOMER_NOT_FOUND');
    const removed = await api.call('DELETE', `/api/v1/client/addresses/${own.body.address.id}`, {
      token: customer,
    });
    assert.equal(removed.body.deleted, own.body.address.id);
    const again = await api.call('DELETE', `/api/v1/client/addresses/${own.body.address.id}`, {
      token: customer,
    });
    assert.equal(again.status, 404);
    assert.equal(again.body.error_code, 'ADDRESS_NOT_FOUND');
  });

  it('deletes an address from the book it is in only, over REST and GraphQL', async () => {
    const office = (await save({ label: 'Back office', line1: '1 Rue du Bac' })).body.address.id as number;
    const home = (await save({ label: 'Flat', line1: '2 Rue du Bac' }, customer)).body.address.id as number;
    const graphqlDelete = (id: number, extra = '') =>
      api.post(
        '/api/graphql',
        { query: `mutation { deleteSavedAddress(address_id: ${id}${extra}) { deleted } }` },
        { token: admin },
      );
    const notFound = (answer: { status: number; body: { error_code?: string } }) => {
      assert.equal(answer.status, 404, JSON.stringify(answer.body));
      assert.equal(answer.body.error_code, 'ADDRESS_NOT_FOUND');
    };
    // A customer reaches its own book only; staff reach a customer's book by naming the customer.
    notFound(await api.call('DELETE', `/api/v1/client/addresses/${office}`, { token: customer }));
    notFound(await api.call('DELETE', `/api/v1/client/addresses/${home}`, { token: admin }));
    const unnamed = await graphqlDelete(home);
    assert.equal(unnamed.body.errors?.[0]?.extensions?.error_code, 'ADDRESS_NOT_FOUND');
    const labels = async (token: string, query = '') =>
      (await api.get(`/api/v1/client/addresses?per_page=100${query}`, { token })).body.addresses.map(
        (address: { label: string }) => address.label,
      );
    assert.ok((await labels(admin)).includes('Back office'));
    assert.ok((await labels(customer)).includes('Flat'));

    const named = await graphqlDelete(home, `, customer_id: ${tenant.userIds.customer}`);
    assert.equal(named.body.data?.deleteSavedAddress?.deleted, home, JSON.stringify(named.body));
    const own = await api.call('DELETE', `/api/v1/client/addresses/${office}`, { token: admin });
    assert.equal(own.body.deleted, office, JSON.stringify(own.body));
    assert.ok(!(await labels(customer)).includes('Flat'));
    assert.ok(!(await labels(admin)).includes('Back office'));
  });

  it('finds an address by words with typos, best match first', async () => {
    await save({ label: 'Lyon depot', line1: '8 Quai Perrache', city: 'Lyon', postal_code: '69002' });
    const found = await search('rue de rivolli');
    assert.equal(found.status, 200, JSON.stringify(found.body));
    assert.equal(found.body.matches[0].address.label, 'Head office');
    assert.ok(found.body.matches[0].score > 0.5);
    assert.equal((await search('perache lyon')).body.matches[0].address.label, 'Lyon depot');
    assert.deepEqual((await search('zzqqxx')).body.matches, []);
    // A customer searches its own book only.
    assert.deepEqual((await search('rivoli', customer)).body.matches, []);
  });

  it('imports a CSV with a report per row, and saves nothing of a bad batch when asked all or nothing', async () => {
    const csv = [
      'label,name,line1,postal_code,city,country,lat,lng',
      'Warehouse A,Dock,1 Rue A,75002,Paris,FR,48.86,2.34',
      'Broken,,,,Paris,FR,,',
      'Warehouse B,,2 Rue B,75003,Paris,France,,',
      'Warehouse C,,3 Rue C,75004,Paris,FR,,',
    ].join('\n');
    const before = (await api.get('/api/v1/client/addresses', { token: admin })).body.total;
    const strict = await api.post(
      '/api/v1/client/addresses/import',
      { csv, all_or_nothing: true },
      { token: admin },
    );
    assert.equal(strict.status, 200, JSON.stringify(strict.body));
    assert.equal(strict.body.created, 0);
    assert.equal(strict.body.refused, 2);
    assert.equal((await api.get('/api/v1/client/addresses', { token: admin })).body.total, before);
    const lenient = await api.post('/api/v1/client/addresses/import', { csv }, { token: admin });
    assert.equal(lenient.body.created, 2);
    assert.deepEqual(
      lenient.body.rows.map((row: { line: number; success: boolean }) => [row.line, row.success]),
      [
        [2, true],
        [3, false],
        [4, false],
        [5, true],
      ],
    );
    assert.equal(lenient.body.rows[1].error_code, 'VALIDATION_FAILED');
    assert.ok(
      lenient.body.rows[1].details.fields.some((field: { field: string }) => field.field === 'line1'),
    );
    assert.ok(
      lenient.body.rows[2].details.fields.some((field: { field: string }) => field.field === 'country'),
    );
    assert.equal((await api.get('/api/v1/client/addresses', { token: admin })).body.total, before + 2);
    const unreadable = await api.post(
      '/api/v1/client/addresses/import',
      { csv: 'label,line1\n"open' },
      { token: admin },
    );
    assert.equal(unreadable.status, 422);
    assert.equal(unreadable.body.error_code, 'CSV_UNREADABLE');
  });

  it('refuses the wrong kind, a missing scope and bad input in the documented shape', async () => {
    const driver = await login(api, tenant.emails.driver);
    assert.equal((await search('rivoli', driver)).body.error_code, 'FORBIDDEN');
    const readOnly = await issuedToken(server, {
      userId: tenant.userIds.client_admin,
      kind: 'agent',
    });
    assert.equal((await search('rivoli', readOnly)).status, 200);
    const write = await save({ label: 'x', line1: 'y' }, readOnly);
    assert.equal(write.status, 403);
    assert.equal(write.body.error_code, 'INSUFFICIENT_SCOPE');
    const bad = await save({ label: '', line1: 'y', lat: 123 }, admin);
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.details.fields.map((field: { field: string }) => field.field).sort(), [
      'label',
      'lat',
    ]);
  });

  it('keeps points of interest with opening hours, found by the same search', async () => {
    const created = await api.post(
      '/api/v1/client/points-of-interest',
      {
        name: 'Bastille parcel locker',
        category: 'locker',
        line1: '1 Place de la Bastille',
        city: 'Paris',
        country: 'FR',
        lat: 48.853,
        lng: 2.369,
        opening_hours: { mon: [{ from: '07:00', to: '22:00' }], sat: [{ from: '09:00', to: '13:00' }] },
      },
      { token: admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.deepEqual(created.body.point.opening_hours.sat, [{ from: '09:00', to: '13:00' }]);
    const found = await search('bastile locker');
    assert.equal(found.body.matches[0].source, 'point_of_interest');
    assert.equal(found.body.matches[0].address.category, 'locker');
    const lockers = await api.get('/api/v1/client/points-of-interest?category=locker', { token: admin });
    assert.equal(lockers.body.total, 1);
    const badHours = await api.post(
      '/api/v1/client/points-of-interest',
      {
        name: 'x',
        category: 'hub',
        line1: 'y',
        lat: 1,
        lng: 1,
        opening_hours: { mon: [{ from: '18:00', to: '08:00' }] },
      },
      { token: admin },
    );
    assert.equal(badHours.status, 422);
    assert.ok(
      badHours.body.details.fields.some(
        (field: { field: string }) => field.field === 'opening_hours.mon.0.to',
      ),
    );
    const customerWrite = await api.post(
      '/api/v1/client/points-of-interest',
      { name: 'x', category: 'hub', line1: 'y', lat: 1, lng: 1 },
      { token: customer },
    );
    assert.equal(customerWrite.body.error_code, 'FORBIDDEN');
    const removed = await api.call('DELETE', `/api/v1/client/points-of-interest/${created.body.point.id}`, {
      token: admin,
    });
    assert.equal(removed.body.deleted, created.body.point.id);
  });

  it('lets an order name a saved address instead of writing one out', async () => {
    const depot = await save({
      label: 'Rungis depot',
      name: 'Dock 4',
      line1: '1 Rue de la Tour',
      postal_code: '94150',
      city: 'Rungis',
      country: 'FR',
      lat: 48.7467,
      lng: 2.3522,
      delivery_notes: 'Gate code 4412',
    });
    const order = (body: Record<string, unknown>, token = admin) =>
      api.post('/api/v1/client/orderCreate', body, { token });
    const made = await order({ dropoff_address_id: depot.body.address.id });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const [created] = made.body.orders ?? [made.body.order];
    assert.equal(created.dropoff.line1, '1 Rue de la Tour');
    assert.equal(created.dropoff.name, 'Dock 4');
    assert.equal(created.dropoff.lat, 48.7467);
    // The address's notes for the driver become the order's instruction, unless the order says its own.
    assert.equal(created.delivery_instruction, 'Gate code 4412');
    const own = await order({ dropoff_address_id: depot.body.address.id, delivery_instruction: 'Back door' });
    assert.equal((own.body.orders ?? [own.body.order])[0].delivery_instruction, 'Back door');

    // A customer names its own book only: the business's depot is not one of its addresses.
    const home = await save({ label: 'Home', line1: '5 Rue Oberkampf', city: 'Paris' }, customer);
    const mine = await order({ dropoff_address_id: home.body.address.id }, customer);
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
    const notMine = await order({ dropoff_address_id: depot.body.address.id }, customer);
    assert.equal(notMine.status, 422);
    assert.equal(notMine.body.error_code, 'SAVED_ADDRESS_NOT_FOUND');
    assert.equal(notMine.body.details.field, 'dropoff_address_id');
    // Staff reach a customer's address only for that customer's order.
    assert.equal(
      (await order({ dropoff_address_id: home.body.address.id })).body.error_code,
      'SAVED_ADDRESS_NOT_FOUND',
    );
    const forCustomer = await order({
      dropoff_address_id: home.body.address.id,
      customer_id: tenant.userIds.customer,
    });
    assert.equal(forCustomer.status, 200, JSON.stringify(forCustomer.body));

    // Another business's saved address is nobody's here.
    const other = await createTenant(server.db, server.app.services, 'addresses-other');
    const otherAdmin = await login(api, other.emails.client_admin);
    const theirs = await save({ label: 'Theirs', line1: '9 Quai' }, otherAdmin);
    assert.equal(
      (await order({ dropoff_address_id: theirs.body.address.id })).body.error_code,
      'SAVED_ADDRESS_NOT_FOUND',
    );
    // One or the other, in the caller's language.
    const both = await api.post(
      '/api/v1/client/orderCreate',
      { dropoff_address_id: depot.body.address.id, dropoff: { line1: '2 Rue' } },
      { token: admin, headers: { 'accept-language': 'fr' } },
    );
    assert.equal(both.status, 422);
    assert.equal(both.body.details.fields[0].field, 'dropoff_address_id');
    assert.match(both.body.details.fields[0].message, /exactement/);
  });

  it('answers GraphQL and the search_address tool alike', async () => {
    const graphql = new GraphQLClient(`${server.baseUrl}/api/graphql`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    const answer = await graphql.request<{
      searchAddress: { matches: Array<{ address: { label: string } }> };
    }>(
      gql`
        query {
          searchAddress(q: "rivoli") {
            matches {
              address {
                label
              }
            }
          }
        }
      `,
    );
    assert.equal(answer.searchAddress.matches[0]!.address.label, 'Head office');
  });
});
