import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { type BookEntry, bookEntries, saveBook } from '../bench/address-book.ts';
import { BusinessDataGeocoder } from '../src/modules/addresses/index.ts';
import type { Queryable } from '../src/platform/db/database.ts';
import type { GeocodeQuery } from '../src/platform/geocoding.ts';
import { createTenant, login, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/** Index scans and table scans of the current transaction, by relation (pg_stat_get_xact_numscans). */
async function scans(db: Queryable, relations: string[]): Promise<Record<string, number>> {
  const { rows } = await sql<{ relation: string; scans: number }>`
    SELECT relation, pg_stat_get_xact_numscans(relation::regclass)::int AS scans
      FROM unnest(${relations}::text[]) AS relation`.execute(db);
  return Object.fromEntries(rows.map((row) => [row.relation, row.scans]));
}

/**
 * The built-in geocoder as it was before the trigram indexes: every entry of the book and every
 * point of interest scored, the five surest of at least 0.4 kept (ties as the geocoder breaks them
 * now: the book first, newest first), the placed records found by the address search's own query.
 */
async function scoredEntryByEntry(
  server: TestServer,
  db: Queryable,
  query: GeocodeQuery,
): Promise<Awaited<ReturnType<BusinessDataGeocoder['geocode']>>> {
  const words = query.text.trim().toLowerCase();
  if (words.length < 3) return null;
  const country = query.country ?? null;
  const { rows: own } = await sql<{
    label: string;
    address_text: string;
    lat: number;
    lng: number;
    confidence: number;
  }>`
    SELECT label, search_text AS address_text, lat, lng,
           least(word_similarity(${words}, search_text), word_similarity(lower(line1), ${words})) AS confidence
      FROM (SELECT 0 AS source, id, label, search_text, line1, lat, lng, country
              FROM saved_addresses
             WHERE business_id = ${query.businessId} AND customer_user_id IS NULL AND lat IS NOT NULL AND lng IS NOT NULL
            UNION ALL
            SELECT 1, id, name, search_text, line1, lat, lng, country
              FROM points_of_interest
             WHERE business_id = ${query.businessId}) AS places
     WHERE (${country}::text IS NULL OR country IS NULL OR country = ${country}::text)
       AND word_similarity(${words}, search_text) >= 0.4
     ORDER BY confidence DESC, source, id DESC
     LIMIT 5`.execute(db);
  const others = await server.app.services.datasets.searchPlaces(db, query.businessId, words, 5);
  const held = (address: string) => new Set(address.toLowerCase().match(/\d+/g) ?? []);
  const best = [...own, ...others.map((place) => ({ ...place, confidence: place.score }))]
    .filter((place) => place.confidence >= 0.7)
    .filter((place) => (words.match(/\d+/g) ?? []).every((number) => held(place.address_text).has(number)))
    .sort((a, b) => b.confidence - a.confidence)[0];
  if (!best) return null;
  const confidence = Math.round(best.confidence * 100) / 100;
  return { lat: best.lat, lng: best.lng, label: best.label, provider: 'business_data', confidence };
}

/** Addresses of every kind the geocoder meets: as written, with a typo, a wrong number, unknown, too short. */
function addressesToPlace(book: BookEntry[], records: BookEntry[], businessId: number): GeocodeQuery[] {
  const line = (entry: BookEntry) => `${entry.line1}, ${entry.postal_code} Lyon`;
  const typo = (text: string) => text.replace(/([aeiou])/, '$1$1');
  const texts = [
    ...book.slice(0, 30).map(line),
    ...book.slice(30, 60).map((entry) => typo(line(entry))),
    ...book.slice(60, 75).map((entry) => `${entry.line1.replace(/^\d+/, '151')}, ${entry.postal_code} Lyon`),
    ...records.slice(0, 15).map(line),
    ...records.slice(15, 30).map((entry) => typo(line(entry))),
    ...Array.from({ length: 10 }, (_, i) => `${i + 1} Rue Inconnue, 69001 Lyon`),
    'Lyon',
    '69003 Lyon',
    'ab',
    book[80]!.line1.replace(/^\d+ /, ''),
  ];
  return texts.map((text, i) => ({
    businessId,
    text,
    // Some name their country, a few another one than the book's.
    country: i % 7 === 0 ? 'FR' : i % 11 === 0 ? 'DE' : null,
  }));
}

describe('matching addresses against a business’s own places', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let geocoder: BusinessDataGeocoder;
  let queries: GeocodeQuery[];

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'matching');
    const admin = await login(api, tenant.emails.client_admin);
    const book = bookEntries(1_500);
    await saveBook(server.db, tenant.businessId, book);
    const depot = await api.post(
      '/api/v1/client/points-of-interest',
      {
        name: 'Gerland depot',
        category: 'depot',
        line1: book[3]!.line1,
        city: 'Lyon',
        lat: 45.73,
        lng: 4.83,
      },
      { token: admin },
    );
    assert.equal(depot.status, 200, JSON.stringify(depot.body));
    // Placed records of a dataset are places too: a second book's addresses, with their points.
    const records = bookEntries(60, 99);
    const dataset = await api.post(
      '/api/v1/client/datasets',
      { name: 'Partner sites', fields: [{ name: 'site', type: 'address', required: true }] },
      { token: admin },
    );
    const imported = await api.post(
      `/api/v1/client/datasets/${dataset.body.dataset.id}/import`,
      {
        records: records.map((entry, i) => ({
          site: { text: `${entry.line1}, ${entry.postal_code} Lyon`, lat: 45.7 + i / 1000, lng: 4.8 },
        })),
      },
      { token: admin },
    );
    assert.equal(imported.body.created, records.length, JSON.stringify(imported.body).slice(0, 300));
    geocoder = new BusinessDataGeocoder(() => server.app.services.datasets);
    queries = addressesToPlace(book, records, tenant.businessId);
  });
  after(() => server.close());

  it('reads the trigram indexes and never scores the whole book or every placed record', async () => {
    await server.db.transaction().execute(async (trx) => {
      const [one, two] = [queries[0]!, queries[31]!];
      assert.ok(await geocoder.geocode(trx, one), 'an address of the book is placed');
      await geocoder.expect(trx, [two, queries[40]!]);
      assert.ok(await geocoder.geocode(trx, two), 'a typo of an address of the book is placed');
      const seen = await scans(trx, [
        'saved_addresses_words',
        'points_of_interest_words',
        'dataset_records_placed_words',
        'saved_addresses',
        'saved_addresses_book',
        'dataset_records',
        'dataset_records_placed',
      ]);
      // One lookup for the first address, two (one statement) for those expected, and the
      // placed records for each address asked.
      assert.deepEqual(seen, {
        saved_addresses_words: 3,
        points_of_interest_words: 3,
        dataset_records_placed_words: 2,
        saved_addresses: 0,
        saved_addresses_book: 0,
        dataset_records: 0,
        dataset_records_placed: 0,
      });
    });
  });

  it('places every address as scoring every entry did, asked alone or expected together', async () => {
    const before = [];
    for (const query of queries) before.push(await scoredEntryByEntry(server, server.db, query));
    const placed = before.filter((answer) => answer !== null).length;
    assert.ok(placed >= 60 && placed < queries.length - 20, `${placed} of ${queries.length} placed`);
    const alone = [];
    for (const query of queries) alone.push(await geocoder.geocode(server.db, query));
    assert.deepEqual(alone, before);
    const together = await server.db.transaction().execute(async (trx) => {
      await geocoder.expect(trx, queries);
      const answers = [];
      for (const query of queries) answers.push(await geocoder.geocode(trx, query));
      return answers;
    });
    assert.deepEqual(together, before);
  });

  it("places an import's row where an earlier row of the same import put the same address", async () => {
    const admin = await login(api, tenant.emails.client_admin);
    const dataset = await api.post(
      '/api/v1/client/datasets',
      { name: 'Drops', fields: [{ name: 'site', type: 'address', required: true }] },
      { token: admin },
    );
    const csv = [
      'site,site.lat,site.lng',
      '"3 Allée des Tilleuls, 69100 Villeurbanne",45.7712,4.8801',
      '"3 allee des Tilleuls, 69100 Villeurbanne",,',
    ].join('\n');
    const answer = await api.post(
      `/api/v1/client/datasets/${dataset.body.dataset.id}/import/csv`,
      { csv },
      { token: admin },
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const second = await api.get(
      `/api/v1/client/datasets/${dataset.body.dataset.id}/records/${answer.body.rows[1].id}`,
      { token: admin },
    );
    assert.deepEqual(
      [
        second.body.record.geocoding.status,
        second.body.record.geocoding.provider,
        second.body.record.location,
      ],
      ['geocoded', 'business_data', { lat: 45.7712, lng: 4.8801 }],
    );
  });
});
