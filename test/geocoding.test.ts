import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { GraphQLClient, gql } from 'graphql-request';
import { loadConfig } from '../src/config.ts';
import { createTenant, issuedToken, login, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/** A geocoder on loopback that speaks Nominatim's search API, and remembers what it was asked. */
async function startNominatim() {
  const asked: Array<{ query: URLSearchParams; headers: IncomingHttpHeaders }> = [];
  let failing = false;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    asked.push({ query: url.searchParams, headers: request.headers });
    if (failing) {
      response.writeHead(503).end('busy');
      return;
    }
    const q = (url.searchParams.get('q') ?? '').toLowerCase();
    const places = q.includes('tour eiffel')
      ? [
          {
            lat: '48.8582599',
            lon: '2.2945006',
            display_name: 'Tour Eiffel, 5 Avenue Anatole France, 75007 Paris, France',
            place_rank: 30,
          },
        ]
      : [];
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(places));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/search`,
    asked,
    fail: (on: boolean) => {
      failing = on;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Nominatim = Awaited<ReturnType<typeof startNominatim>>;

describe('geocoding', () => {
  let nominatim: Nominatim;
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;

  const geocode = (query: string, token = admin) => api.get(`/api/v1/client/geocode?${query}`, { token });

  before(async () => {
    nominatim = await startNominatim();
    const geocoder = loadConfig({
      GEOCODER_URL: nominatim.url,
      GEOCODER_ALLOW_LOOPBACK: 'true',
      GEOCODER_MIN_INTERVAL_MS: '0',
    }).geocoder;
    server = await startTestServer({ geocoder });
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'geocoding');
    admin = await login(api, tenant.emails.client_admin);
    await api.post(
      '/api/v1/client/addresses',
      {
        label: 'Head office',
        line1: '12 Rue de Rivoli',
        postal_code: '75001',
        city: 'Paris',
        country: 'FR',
        lat: 48.8606,
        lng: 2.3376,
      },
      { token: admin },
    );
    await api.post(
      '/api/v1/client/points-of-interest',
      {
        name: 'Lyon depot',
        category: 'depot',
        line1: '8 Quai Perrache',
        postal_code: '69002',
        city: 'Lyon',
        country: 'FR',
        lat: 45.7485,
        lng: 4.8255,
      },
      { token: admin },
    );
  });
  after(async () => {
    await server.close();
    await nominatim.close();
  });

  it("places an address where the business's own book or points of interest already have it", async () => {
    const office = await geocode(`address=${encodeURIComponent('12 rue de rivoli, 75001 Paris')}&country=FR`);
    assert.equal(office.status, 200, JSON.stringify(office.body));
    assert.equal(office.body.found, true);
    assert.equal(office.body.place.provider, 'business_data');
    assert.equal(office.body.place.lat, 48.8606);
    assert.equal(office.body.place.label, 'Head office');
    const depot = await geocode(`address=${encodeURIComponent('8 Quai Perache 69002 Lyon')}`);
    assert.equal(depot.body.place.provider, 'business_data', 'a typo still finds the depot');
    assert.equal(depot.body.place.lng, 4.8255);
    // Its own data answered: the public geocoder was not asked.
    assert.equal(nominatim.asked.length, 0);
  });

  it('never stands a near place in for the address: another number or a bare city is unknown', async () => {
    const asked = nominatim.asked.length;
    for (const text of ['14 Rue de Rivoli, 75001 Paris', 'Paris', '8 Quai Perrache 69007 Lyon']) {
      const answer = await geocode(`address=${encodeURIComponent(text)}`);
      assert.equal(answer.status, 200);
      assert.equal(answer.body.found, false, text);
      assert.equal(answer.body.place, null);
    }
    // Each was then asked of the public geocoder, which did not know them either.
    assert.equal(nominatim.asked.length, asked + 3);
  });

  it('asks the public geocoder by URL after its own data, politely and once per address', async () => {
    const asked = nominatim.asked.length;
    const eiffel = await geocode(`address=${encodeURIComponent('Tour Eiffel, Paris')}&country=FR`);
    assert.equal(eiffel.status, 200, JSON.stringify(eiffel.body));
    assert.deepEqual(eiffel.body.place, {
      lat: 48.8582599,
      lng: 2.2945006,
      label: 'Tour Eiffel, 5 Avenue Anatole France, 75007 Paris, France',
      provider: 'url',
      confidence: 1,
    });
    const call = nominatim.asked.at(-1)!;
    assert.equal(call.query.get('q'), 'Tour Eiffel, Paris');
    assert.equal(call.query.get('format'), 'jsonv2');
    assert.equal(call.query.get('countrycodes'), 'fr');
    assert.match(String(call.headers['user-agent']), /^tms\//);
    await geocode(`address=${encodeURIComponent('Tour Eiffel, Paris')}&country=FR`);
    assert.equal(nominatim.asked.length, asked + 1, 'the second ask is answered from memory');
    // search_address falls back on it only when nothing of the business's own matches.
    const searched = await api.get(`/api/v1/client/addresses/search?q=${encodeURIComponent('tour eiffel')}`, {
      token: admin,
    });
    assert.equal(searched.body.matches[0].source, 'geocoder');
    assert.equal(searched.body.matches[0].address.id, null);
    assert.equal(searched.body.matches[0].address.lat, 48.8582599);
  });

  it('says the public geocoder is unavailable in the error shape, and search still answers', async () => {
    nominatim.fail(true);
    try {
      const answer = await api.get(
        `/api/v1/client/geocode?address=${encodeURIComponent('1 Unknown Street')}`,
        {
          token: admin,
          headers: { 'accept-language': 'fr' },
        },
      );
      assert.equal(answer.status, 502);
      assert.equal(answer.body.result, false);
      assert.equal(answer.body.error_code, 'GEOCODER_UNAVAILABLE');
      assert.match(answer.body.message, /géocodeur/);
      const searched = await api.get('/api/v1/client/addresses/search?q=nowhere+street', { token: admin });
      assert.equal(searched.status, 200);
      assert.deepEqual(searched.body.matches, []);
    } finally {
      nominatim.fail(false);
    }
  });

  it('refuses the wrong kind, a missing scope and bad input, over REST and GraphQL', async () => {
    const customer = await login(api, tenant.emails.customer);
    assert.equal((await geocode('address=12+rue+de+rivoli', customer)).body.error_code, 'FORBIDDEN');
    const datasetsOnly = await issuedToken(server, {
      userId: tenant.userIds.client_admin,
      kind: 'agent',
      profile: 'datasets-readonly',
    });
    const scoped = await geocode('address=12+rue+de+rivoli', datasetsOnly);
    assert.equal(scoped.status, 403);
    assert.equal(scoped.body.error_code, 'INSUFFICIENT_SCOPE');
    const bad = await geocode('address=x&country=fr');
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.details.fields.map((field: { field: string }) => field.field).sort(), [
      'address',
      'country',
    ]);
    const graphql = new GraphQLClient(`${server.baseUrl}/api/graphql`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    const answer = await graphql.request<{
      geocodeAddress: { found: boolean; place: { provider: string } };
    }>(gql`
      query {
        geocodeAddress(address: "12 Rue de Rivoli 75001 Paris") {
          found
          place {
            provider
          }
        }
      }
    `);
    assert.deepEqual(answer.geocodeAddress, { found: true, place: { provider: 'business_data' } });
  });

  it('places dataset records: its own data at once, the public geocoder in the background, never in a dry run', async () => {
    const dataset = await api.post(
      '/api/v1/client/datasets',
      {
        name: 'Sites',
        fields: [
          { name: 'name', type: 'text', required: true },
          { name: 'site', type: 'address', required: true },
        ],
      },
      { token: admin },
    );
    assert.equal(dataset.status, 200, JSON.stringify(dataset.body));
    const records = `/api/v1/client/datasets/${dataset.body.dataset.id}/records`;
    const add = (name: string, text: string, headers: Record<string, string> = {}) =>
      api.post(records, { values: { name, site: { text } } }, { token: admin, headers });
    const record = async (id: number) => (await api.get(`${records}/${id}`, { token: admin })).body.record;

    // The depot is one of the business's points of interest: placed in the writing transaction.
    const depot = await add('Depot', '8 Quai Perrache, 69002 Lyon');
    assert.deepEqual(
      { status: depot.body.record.geocoding.status, provider: depot.body.record.geocoding.provider },
      { status: 'geocoded', provider: 'business_data' },
    );
    // The others wait for the public geocoder, which nobody has asked yet.
    const asked = nominatim.asked.length;
    const eiffel = await add('Eiffel', 'Tour Eiffel, Paris');
    const nowhere = await add('Nowhere', '99 Rue Inconnue, 00000 Nulle Part');
    assert.equal(eiffel.body.record.geocoding.status, 'pending');
    assert.equal(nominatim.asked.length, asked);
    const dry = await add('Dry', 'Tour Eiffel, Champ de Mars', { 'x-dry-run': '1' });
    assert.equal(dry.body.record.geocoding.status, 'pending');

    // A geocoder that is down leaves them waiting, to be tried again later.
    nominatim.fail(true);
    await server.app.outbox.drainOnce();
    nominatim.fail(false);
    assert.equal((await record(eiffel.body.record.id)).geocoding.status, 'pending');
    server.clock.advance(2 * 60_000);
    while ((await server.app.outbox.drainOnce()) > 0);
    const placed = await record(eiffel.body.record.id);
    assert.equal(placed.geocoding.status, 'geocoded');
    assert.equal(placed.geocoding.provider, 'url');
    assert.deepEqual(placed.location, { lat: 48.8582599, lng: 2.2945006 });
    assert.equal((await record(nowhere.body.record.id)).geocoding.status, 'not_found');
    // The dry run's record was never written, so nobody was asked about it.
    assert.ok(nominatim.asked.every((call) => call.query.get('q') !== 'Tour Eiffel, Champ de Mars'));

    // Placed records join the address search, with their dataset.
    const found = await api.get(`/api/v1/client/addresses/search?q=${encodeURIComponent('tour eifel')}`, {
      token: admin,
    });
    const match = found.body.matches.find((m: { source: string }) => m.source === 'dataset_record');
    assert.ok(match, JSON.stringify(found.body));
    assert.equal(match.address.id, eiffel.body.record.id);
    assert.equal(match.address.dataset_id, dataset.body.dataset.id);
    assert.equal(match.address.label, 'Eiffel');
    // Datasets are the business's own: a customer's search does not reach them.
    const customer = await login(api, tenant.emails.customer);
    const asCustomer = await api.get(
      `/api/v1/client/addresses/search?q=${encodeURIComponent('tour eifel')}`,
      {
        token: customer,
      },
    );
    assert.equal(asCustomer.status, 200);
    assert.ok(asCustomer.body.matches.every((m: { source: string }) => m.source !== 'dataset_record'));
  });

  it("keeps another business's places to itself", async () => {
    const other = await createTenant(server.db, server.app.services, 'geocoding-other');
    const otherAdmin = await login(api, other.emails.client_admin);
    const answer = await geocode(
      `address=${encodeURIComponent('12 Rue de Rivoli, 75001 Paris')}`,
      otherAdmin,
    );
    assert.equal(answer.body.found, false);
  });
});

describe('geocoding without permission to reach private addresses', () => {
  it('refuses a geocoder URL on loopback unless the operator allows it, and never calls it', async () => {
    const nominatim = await startNominatim();
    const server = await startTestServer({ geocoder: loadConfig({ GEOCODER_URL: nominatim.url }).geocoder });
    try {
      const api = client(server.baseUrl);
      const tenant = await createTenant(server.db, server.app.services, 'geocoding-guard');
      const admin = await login(api, tenant.emails.client_admin);
      const answer = await api.get('/api/v1/client/geocode?address=Tour+Eiffel', { token: admin });
      assert.equal(answer.status, 502);
      assert.equal(answer.body.error_code, 'GEOCODER_UNAVAILABLE');
      assert.equal(nominatim.asked.length, 0);
    } finally {
      await server.close();
      await nominatim.close();
    }
  });
});
