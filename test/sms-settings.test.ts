import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ACCOUNT_KINDS } from '../src/platform/catalog/operation.ts';
import { createTenant, login } from './support/fixtures.ts';
import { client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';
import { SMS_SETTINGS, type SmsBusiness, smsBusiness } from './support/sms.ts';

describe('SMS marketing: the family switch, who may use it, and its settings', () => {
  let server: TestServer;
  let business: SmsBusiness;

  before(async () => {
    server = await startTestServer();
    business = await smsBusiness(server, 'sms-settings');
  });

  after(async () => {
    await server?.close();
  });

  it('answers 409 SMS_MARKETING_DISABLED while the family is off, and until it is set up', async () => {
    const api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'sms-off');
    const admin = await login(api, tenant.emails.client_admin);
    const off = await api.get('/api/v1/sms/settings', { token: admin });
    assert.equal(off.status, 409);
    assert.equal(off.body.error_code, 'SMS_MARKETING_DISABLED');
    assert.equal(off.body.details.reason, 'off');
    await api.call('PUT', '/api/v1/client/feature-families/sms_marketing', {
      token: admin,
      body: { enabled: true },
    });
    // On, but not set up: only the settings are reachable.
    const unset = await api.get('/api/v1/sms/settings', { token: admin });
    assert.equal(unset.status, 200);
    assert.equal(unset.body.settings, null);
  });

  it("refuses every account that is not a business's own staff with 403", async () => {
    const { api, tenant } = business;
    for (const kind of ACCOUNT_KINDS.filter((k) => k !== 'client_admin' && k !== 'employee')) {
      const token = await login(api, tenant.emails[kind]);
      const read = await api.get('/api/v1/sms/settings', { token });
      assert.equal(read.status, 403, `${kind}: ${JSON.stringify(read.body)}`);
    }
    const employee = await login(api, tenant.emails.employee);
    assert.equal((await api.get('/api/v1/sms/settings', { token: employee })).status, 200);
    const write = await api.call('PUT', '/api/v1/sms/settings', { token: employee, body: SMS_SETTINGS });
    assert.equal(write.status, 403);
  });

  it("keeps quiet hours at least as wide as the law asks, naming the field, in the caller's language", async () => {
    const { api, admin } = business;
    const narrow = await api.call('PUT', '/api/v1/sms/settings', {
      token: admin,
      headers: { 'accept-language': 'fr' },
      body: { ...SMS_SETTINGS, quiet_hours: { start: '22:00', end: '08:00' } },
    });
    assert.equal(narrow.status, 422);
    assert.equal(narrow.body.error_code, 'VALIDATION_FAILED');
    assert.equal(narrow.body.details.fields[0].field, 'quiet_hours.start');
    assert.equal(narrow.body.message, 'Certains champs sont invalides : quiet_hours.start.');
    const wider = await api.call('PUT', '/api/v1/sms/settings', {
      token: admin,
      body: { ...SMS_SETTINGS, quiet_hours: { start: '20:00', end: '09:30' } },
    });
    assert.equal(wider.status, 200, JSON.stringify(wider.body));
    assert.deepEqual(wider.body.settings.quiet_hours, { start: '20:00', end: '09:30' });
  });

  it("never shows a provider's secret, and refuses a generic provider on a private address", async () => {
    const { api, admin } = business;
    const twilio = await api.call('PUT', '/api/v1/sms/settings', {
      token: admin,
      body: {
        ...SMS_SETTINGS,
        provider: { kind: 'twilio', account_sid: `AC${'0'.repeat(32)}`, secret: 'twilio-auth-token-1' },
      },
    });
    assert.equal(twilio.status, 200, JSON.stringify(twilio.body));
    assert.equal(twilio.body.settings.provider.secret_set, true);
    assert.ok(!JSON.stringify(twilio.body).includes('twilio-auth-token-1'));
    const stored = await server.db
      .selectFrom('sms_settings' as never)
      .selectAll()
      .execute();
    assert.ok(!JSON.stringify(stored).includes('twilio-auth-token-1'), 'the secret is sealed at rest');
    const internal = await api.call('PUT', '/api/v1/sms/settings', {
      token: admin,
      body: {
        ...SMS_SETTINGS,
        provider: { kind: 'generic', url: 'http://10.0.0.7/sms', secret: 'signing-key-1' },
      },
    });
    assert.equal(internal.status, 422);
    assert.equal(internal.body.details.fields[0].field, 'provider.url');
    // Back to the log provider: the stored secret goes with the provider it belonged to.
    const log = await api.call('PUT', '/api/v1/sms/settings', {
      token: admin,
      body: { ...SMS_SETTINGS, provider: { kind: 'log' } },
    });
    assert.equal(log.body.settings.provider.secret_set, false);
  });
});
