import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { SAVING_MS } from '../src/modules/datasets/importing.ts';
import type { ManualClock } from '../src/platform/clock.ts';
import type { Queryable } from '../src/platform/db/database.ts';
import type { GeocodeQuery, GeocodeResult, Geocoder } from '../src/platform/geocoding.ts';
import type { Json } from './support/datasets.ts';
import { createTenant, login } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * Knows no address. A "Late" one takes all the time an import has to save its rows (the clock
 * jumps); a "Broken" one, while `breaking`, breaks the transaction it is asked in, as a database
 * failing midway would; a "Changing" one runs `change` (not waited for).
 */
class ScriptedGeocoder implements Geocoder {
  clock: ManualClock | undefined;
  breaking = true;
  change: (() => Promise<unknown>) | undefined;
  changed: Promise<unknown> | undefined;

  async geocode(db: Queryable, query: GeocodeQuery): Promise<GeocodeResult | null> {
    if (query.text.includes('Late')) this.clock!.advance(SAVING_MS);
    if (query.text.includes('Broken') && this.breaking) await sql`SELECT 1 / 0`.execute(db);
    if (query.text.includes('Changing')) this.changed = this.change?.();
    return null;
  }
}

/** `count` stops, the one at `special` (from 0) on the street the geocoder treats apart. */
const stops = (count: number, special?: { at: number; street: string }) =>
  Array.from({ length: count }, (_, i) => ({
    name: `Stop ${i}`,
    site: { text: `${i} ${i === special?.at ? special.street : 'Rue des Essais'}, 69001 Lyon` },
  }));

const asCsv = (rows: ReturnType<typeof stops>) =>
  ['name,site', ...rows.map((row) => `${row.name},"${row.site.text}"`)].join('\n');

/** Polls until `done` holds of what `read` answers, for at most 60 s (a loaded machine is slow). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

describe('dataset imports saved in chunks', () => {
  const geocoder = new ScriptedGeocoder();
  let server: TestServer;
  let api: Client;
  let admin: string;

  /** A dataset of its own for a test, and how many records it holds. */
  async function dataset(name: string) {
    const created = await api.post(
      '/api/v1/client/datasets',
      {
        name,
        fields: [
          { name: 'name', type: 'text', required: true },
          { name: 'site', type: 'address', required: true },
        ],
      },
      { token: admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id: number = created.body.dataset.id;
    const count = async (): Promise<number> =>
      (await api.get(`/api/v1/client/datasets/${id}`, { token: admin })).body.dataset.record_count;
    return { id, count };
  }

  before(async () => {
    server = await startTestServer({}, { geocoder });
    geocoder.clock = server.clock;
    // The test server runs no background work unless asked: this file's imports run as jobs too.
    await server.app.jobs.start();
    api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'import-chunks');
    admin = await login(api, tenant.emails.client_admin);
  });
  after(() => server.close());

  it('a job out of time keeps the rows it saved and says where it stopped; the same file again saves only the rest', async () => {
    const { id, count } = await dataset('Out of time');
    const csv = asCsv(stops(600, { at: 400, street: 'Rue Late' }));
    const path = `/api/v1/client/datasets/${id}/import/csv`;
    const accepted = await api.call('POST', path, {
      token: admin,
      body: { csv },
      headers: { prefer: 'respond-async' },
    });
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body).slice(0, 300));
    const job = (
      await until(
        () => api.get(accepted.headers.get('location')!, { token: admin }),
        (answer) => ['succeeded', 'failed'].includes(answer.body.job.status),
      )
    ).body.job;
    assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
    const first = job.result;
    // Rows 0 to 400 (lines 2 to 402) were saved, the first 250 in a chunk of their own.
    assert.deepEqual(
      [first.result, first.complete, first.created, first.saved_before, first.refused, first.stopped_at],
      [true, false, 401, 0, 0, { line: 403 }],
    );
    assert.equal(first.rows.length, 600);
    assert.deepEqual(first.rows[400].success, true);
    assert.deepEqual(
      [first.rows[401].line, first.rows[401].success, first.rows[401].error_code],
      [403, false, 'NOT_REACHED'],
    );
    assert.ok(first.rows.slice(401).every((row: Json) => row.error_code === 'NOT_REACHED'));
    assert.equal(await count(), 401);

    const again = await api.post(path, { csv }, { token: admin });
    assert.equal(again.status, 200, JSON.stringify(again.body).slice(0, 300));
    assert.deepEqual(
      [again.body.complete, again.body.created, again.body.saved_before, again.body.stopped_at],
      [true, 199, 401, null],
    );
    assert.deepEqual(
      again.body.rows.slice(0, 401).map((row: Json) => row.id),
      first.rows.slice(0, 401).map((row: Json) => row.id),
      'the rows saved before are reported with their records',
    );
    assert.ok(again.body.rows.every((row: Json) => row.success));
    assert.equal(await count(), 600);

    const thrice = await api.post(path, { csv }, { token: admin });
    assert.deepEqual(
      [thrice.body.result, thrice.body.complete, thrice.body.created, thrice.body.saved_before],
      [true, true, 0, 600],
    );
    assert.equal(await count(), 600, 'no row is saved twice');
  });

  it('a database failure midway keeps the chunks committed before it', async () => {
    const { id, count } = await dataset('Broken midway');
    const records = stops(600, { at: 300, street: 'Rue Broken' });
    const path = `/api/v1/client/datasets/${id}/import`;
    const failed = await api.post(path, { records }, { token: admin });
    assert.equal(failed.status, 500, JSON.stringify(failed.body).slice(0, 300));
    // The first chunk (rows 0 to 249) was committed; the second went back with the failure.
    assert.equal(await count(), 250);

    geocoder.breaking = false;
    const again = await api.post(path, { records }, { token: admin });
    assert.equal(again.status, 200, JSON.stringify(again.body).slice(0, 300));
    assert.deepEqual([again.body.complete, again.body.created, again.body.saved_before], [true, 350, 250]);
    assert.equal(await count(), 600);
  });

  it('all or nothing out of time saves nothing, and says so on every row', async () => {
    const { id, count } = await dataset('All or nothing');
    const answer = await api.post(
      `/api/v1/client/datasets/${id}/import`,
      { records: stops(300, { at: 100, street: 'Rue Late' }), all_or_nothing: true },
      { token: admin },
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body).slice(0, 300));
    assert.deepEqual(
      [answer.body.result, answer.body.complete, answer.body.created, answer.body.stopped_at],
      [false, false, 0, { index: 101 }],
    );
    assert.ok(answer.body.rows.every((row: Json) => !row.success && row.error_code === 'NOT_SAVED'));
    assert.equal(await count(), 0);
  });

  it("stops at the chunk that finds the dataset's fields changed since its rows were checked", async () => {
    const { id, count } = await dataset('Changing');
    // A field is added while the first chunk is saved: the change waits for that chunk's commit.
    geocoder.change = () =>
      api.call('PATCH', `/api/v1/client/datasets/${id}`, {
        token: admin,
        body: {
          fields: [
            { name: 'name', type: 'text', required: true },
            { name: 'site', type: 'address', required: true },
            { name: 'floor', type: 'number' },
          ],
        },
      });
    const records = stops(600, { at: 10, street: 'Rue Changing' });
    const path = `/api/v1/client/datasets/${id}/import`;
    const first = await api.post(path, { records }, { token: admin });
    assert.equal(first.status, 200, JSON.stringify(first.body).slice(0, 300));
    assert.equal(((await geocoder.changed) as { status: number }).status, 200);
    // The chunk after the first one that committed, or the one after that (which holds the
    // dataset first, the change or that chunk, is the database's to decide).
    assert.equal(first.body.complete, false);
    assert.ok([250, 500].includes(first.body.stopped_at.index), JSON.stringify(first.body.stopped_at));
    const stoppedAt = first.body.stopped_at.index;
    assert.equal(first.body.created, stoppedAt);
    assert.match(first.body.rows[stoppedAt].message, /fields changed/);
    assert.equal(await count(), stoppedAt);
    const again = await api.post(path, { records }, { token: admin });
    assert.deepEqual(
      [again.body.complete, again.body.created, again.body.saved_before],
      [true, 600 - stoppedAt, stoppedAt],
    );
    assert.equal(await count(), 600);
  });

  it('a dry run of an import in chunks keeps none of them', async () => {
    const { id, count } = await dataset('Dry');
    const records = stops(300);
    const path = `/api/v1/client/datasets/${id}/import`;
    const dry = await api.post(path, { records }, { token: admin, headers: { 'x-dry-run': '1' } });
    assert.equal(dry.status, 200, JSON.stringify(dry.body).slice(0, 300));
    assert.deepEqual([dry.body.dry_run, dry.body.created, dry.body.complete], [true, 300, true]);
    assert.equal(await count(), 0);
    const real = await api.post(path, { records }, { token: admin });
    assert.deepEqual([real.body.created, real.body.saved_before], [300, 0]);
    assert.equal(await count(), 300);
  });
});
