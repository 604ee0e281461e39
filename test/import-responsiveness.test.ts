import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTenant, login } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

const ROWS = 5_000;

/**
 * A large import works in slices and gives the event loop back between them: requests of anyone
 * else, made while it runs, are answered before it is. Ordering is asserted, never time.
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
   * Starts the import, and once its service method runs (the CPU work is about to begin), reads
   * /api/health three times one after another: the order in which the answers came back, and the
   * moment the service method's work ended among them.
   */
  async function racedWithHealth(
    service: { importCsv: (...args: never[]) => Promise<unknown> },
    path: string,
    csv: string,
  ): Promise<{ order: string[]; report: { refused: number } }> {
    const order: string[] = [];
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const importCsv = service.importCsv;
    service.importCsv = (...args) => {
      started();
      // When the service's work ends: before the door's own slices (output contract, JSON).
      return importCsv.apply(service, args).finally(() => order.push('import worked'));
    };
    try {
      const imported = api
        .post(path, { csv }, { token: admin, headers: { 'x-dry-run': '1' } })
        .then((answer) => {
          order.push('import');
          return answer;
        });
      await running;
      for (let read = 1; read <= 3; read++) {
        const health = await api.get('/api/health');
        assert.equal(health.status, 200);
        order.push(`health ${read}`);
      }
      const answer = await imported;
      assert.equal(answer.status, 200, JSON.stringify(answer.body).slice(0, 300));
      return { order, report: answer.body };
    } finally {
      service.importCsv = importCsv;
    }
  }

  it('answers health reads made during a 5,000-row dataset CSV import before the import', async () => {
    const csv = [
      'name,docks,site,site.lat,site.lng,opened,extra',
      ...Array.from({ length: ROWS }, (_, i) => `Site ${i},many,8 Quai Perrache Lyon,99,200,2026-13-45,x`),
    ].join('\n');
    const { order, report } = await racedWithHealth(
      server.app.services.datasets,
      `/api/v1/client/datasets/${datasetId}/import/csv`,
      csv,
    );
    assert.equal(report.refused, ROWS, 'every row was checked and refused');
    assert.deepEqual(order, ['health 1', 'health 2', 'health 3', 'import worked', 'import']);
  });

  it('answers health reads made during a 5,000-row address book import before the import', async () => {
    const csv = [
      'label,name,line1,postal_code,city,country,lat,lng',
      ...Array.from({ length: ROWS }, (_, i) => `Site ${i},,,69002,Lyon,France,99,200`),
    ].join('\n');
    const { order, report } = await racedWithHealth(
      server.app.services.addresses,
      '/api/v1/client/addresses/import',
      csv,
    );
    assert.equal(report.refused, ROWS);
    assert.deepEqual(order, ['health 1', 'health 2', 'health 3', 'import worked', 'import']);
  });
});
