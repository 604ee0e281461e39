import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTenant, login } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

const ROWS = 5_000;

/**
 * A large import works in slices and gives the event loop back between them: requests of anyone
 * else, made while it runs, are answered before it is. Ordering is asserted, never time, and the
 * ordering must not depend on the machine's speed either: the slices' clock (`performance.now`, read
 * by src/platform/slices.ts) advances one millisecond each time it is read while the import works,
 * so the import gives the event loop back after the same rows on any machine (every eighth row,
 * hundreds of times), and the reads beside it are of the capabilities, answered from memory in a few
 * turns of the event loop. Health reads compared with real time would race: each waits on the
 * database, and a fast machine can finish the whole import before three of them come back.
 */
describe('imports beside other requests', () => {
  let server: TestServer;
  let api: Client;
  let admin: string;
  let datasetId: number;

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'slices');
    admin = await login(api, tenant.emails.client_admin);
    const created = await api.post(
      '/api/v1/client/datasets',
      {
        name: 'Sites',
        fields: [
          { name: 'name', type: 'text', required: true },
          { name: 'docks', type: 'number', required: true },
          { name: 'site', type: 'address' },
          { name: 'opened', type: 'date' },
        ],
      },
      { token: admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    datasetId = created.body.dataset.id;
  });
  after(() => server.close());

  /**
   * Starts the import and, once its service method reads the slices' clock (its rows are being
   * worked through), reads the capabilities three times one after another: the order in which the
   * answers came back, and the moment the service method's work ended among them.
   */
  async function racedWithReads(
    service: { importCsv: (...args: never[]) => Promise<unknown> },
    path: string,
    csv: string,
  ): Promise<{ order: string[]; report: { refused: number } }> {
    const order: string[] = [];
    let slicing!: () => void;
    const sliced = new Promise<void>((resolve) => {
      slicing = resolve;
    });
    const importCsv = service.importCsv;
    const steadyClock = () => {
      let reading = 0;
      performance.now = () => {
        slicing();
        return ++reading;
      };
    };
    const realClock = () => delete (performance as { now?: unknown }).now;
    service.importCsv = (...args) => {
      steadyClock();
      // When the service's work ends: before the door's own slices (output contract, JSON).
      return importCsv.apply(service, args).finally(() => {
        realClock();
        order.push('import worked');
      });
    };
    try {
      const imported = api
        .post(path, { csv }, { token: admin, headers: { 'x-dry-run': '1' } })
        .then((answer) => {
          order.push('import');
          return answer;
        });
      await Promise.race([sliced, imported]);
      for (let read = 1; read <= 3; read++) {
        const capabilities = await api.get('/api/v1/agent/capabilities');
        assert.equal(capabilities.status, 200);
        order.push(`read ${read}`);
      }
      const answer = await imported;
      assert.equal(answer.status, 200, JSON.stringify(answer.body).slice(0, 300));
      return { order, report: answer.body };
    } finally {
      service.importCsv = importCsv;
      realClock();
    }
  }

  it('answers reads made during a 5,000-row dataset CSV import before the import', async () => {
    const csv = [
      'name,docks,site,site.lat,site.lng,opened,extra',
      ...Array.from({ length: ROWS }, (_, i) => `Site ${i},many,8 Quai Perrache Lyon,99,200,2026-13-45,x`),
    ].join('\n');
    const { order, report } = await racedWithReads(
      server.app.services.datasets,
      `/api/v1/client/datasets/${datasetId}/import/csv`,
      csv,
    );
    assert.equal(report.refused, ROWS, 'every row was checked and refused');
    assert.deepEqual(order, ['read 1', 'read 2', 'read 3', 'import worked', 'import']);
  });

  it('answers reads made during a 5,000-row address book import before the import', async () => {
    const csv = [
      'label,name,line1,postal_code,city,country,lat,lng',
      ...Array.from({ length: ROWS }, (_, i) => `Site ${i},,,69002,Lyon,France,99,200`),
    ].join('\n');
    const { order, report } = await racedWithReads(
      server.app.services.addresses,
      '/api/v1/client/addresses/import',
      csv,
    );
    assert.equal(report.refused, ROWS);
    assert.deepEqual(order, ['read 1', 'read 2', 'read 3', 'import worked', 'import']);
  });
});
