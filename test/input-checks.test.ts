import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTenant, DROPOFF, login, type Tenant } from './support/fixtures.ts';
import { type Answer, type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/** The fields a VALIDATION_FAILED answer names, in its order. */
const fieldsOf = (answer: Answer) =>
  (answer.body.details.fields as Array<{ field: string }>).map((problem) => problem.field);

/** What every door checks of a call's input before it runs, whichever door it came through. */
describe('input checks', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'checks');
    admin = await login(api, tenant.emails.client_admin);
  });
  after(() => server.close());

  describe('a list longer than its bound', () => {
    const batch = (items: unknown[]) =>
      api.call('POST', '/api/v1/otep/trackings/batch', { body: JSON.stringify({ tracking_numbers: items }) });

    it('refuses 140,000 items in the error shape, its bound named and no item read', async () => {
      const answer = await batch(Array.from({ length: 140_000 }, () => 1));
      assert.equal(answer.status, 422, JSON.stringify(answer.body).slice(0, 300));
      assert.equal(answer.body.result, false);
      assert.equal(answer.body.error_code, 'VALIDATION_FAILED');
      assert.deepEqual(answer.body.details.fields.length, 1);
      const [problem] = answer.body.details.fields;
      assert.equal(problem.field, 'tracking_numbers');
      assert.equal(problem.code, 'too_big');
      assert.match(problem.message, /100/);
    });

    it('answers 100,000 wrong items with a small refusal', async () => {
      const answer = await batch(Array.from({ length: 100_000 }, () => 1));
      const bytes = Buffer.byteLength(JSON.stringify(answer.body));
      assert.equal(answer.status, 422);
      assert.ok(bytes < 10_000, `${bytes} bytes`);
      assert.ok(answer.body.details.fields.length <= 20);
    });

    it('lists the first 20 problems of a list within its bound, and how many there are', async () => {
      const answer = await batch(Array.from({ length: 100 }, () => 1));
      assert.equal(answer.status, 422);
      assert.equal(answer.body.details.fields.length, 20);
      assert.equal(answer.body.details.fields[19].field, 'tracking_numbers.19');
      assert.equal(answer.body.details.problem_count, 100);
      assert.match(answer.body.message, /tracking_numbers\.19, …/);
    });

    it('checks lists deeper down against their bound before their items', async () => {
      const answer = await api.post(
        '/api/v1/client/orderCreate',
        { orders: [{ dropoff: DROPOFF, packages: Array.from({ length: 50_000 }, () => 'parcel') }] },
        { token: admin },
      );
      assert.equal(answer.status, 422, JSON.stringify(answer.body).slice(0, 300));
      assert.deepEqual(fieldsOf(answer), ['orders.0.packages']);
      assert.equal(answer.body.details.fields[0].code, 'too_big');
    });

    it('refuses a body over the service’s limit before reading it, with 413', async () => {
      const answer = await batch(Array.from({ length: 300_000 }, () => 'AB'));
      assert.equal(answer.status, 413);
      assert.equal(answer.body.error_code, 'PAYLOAD_TOO_LARGE');
      assert.equal(answer.body.details.limit_bytes, server.config.bodyLimitBytes);
    });
  });
});
