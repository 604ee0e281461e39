import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GraphQLClient, gql } from 'graphql-request';
import { createTenant, login, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

const PASSWORD = 'a long enough password';

/** Drivers sign themselves up for a business; the business approves or rejects them. */
describe('driver self-registration', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let other: Tenant;
  let admin: string;

  const signUp = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    api.post(
      '/api/v1/driver/register',
      { business_code: tenant.code, name: 'Nora Diallo', password: PASSWORD, ...body },
      { headers },
    );
  const pending = async (email: string) => {
    const listed = await api.get('/api/v1/client/driver-registrations?status=pending', { token: admin });
    return listed.body.registrations.find((r: { email: string }) => r.email === email);
  };
  const signIn = (email: string, password = PASSWORD) => api.post('/api/v1/user/login', { email, password });

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'signup');
    other = await createTenant(server.db, server.app.services, 'signup-other');
    admin = await login(api, tenant.emails.client_admin);
  });
  after(() => server.close());

  it('takes a sign-up, keeps the driver out until approved, then lets the driver in as a driver', async () => {
    const answer = await signUp({
      email: 'Nora@Example.org',
      phone: '+33 6 12 34 56 78',
      vehicle_type: 'cargo_bike',
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body, { result: true, status: 'pending_approval' });

    const refused = await signIn('nora@example.org');
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error_code, 'ACCOUNT_PENDING_APPROVAL');
    const wrongPassword = await signIn('nora@example.org', 'not the password');
    assert.equal(wrongPassword.body.error_code, 'INVALID_CREDENTIALS', 'the password is checked first');

    const registration = await pending('nora@example.org');
    assert.equal(registration.name, 'Nora Diallo');
    assert.equal(registration.phone, '+33 6 12 34 56 78');
    assert.equal(registration.vehicle_type, 'cargo_bike');
    assert.equal(registration.decided_at, null);

    const approved = await api.post(
      `/api/v1/client/driver-registrations/${registration.id}/approve`,
      {},
      { token: admin },
    );
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    assert.equal(approved.body.status, 'approved');
    assert.equal(approved.body.user_id, registration.user_id);

    const session = await signIn('nora@example.org');
    assert.equal(session.status, 200, JSON.stringify(session.body));
    const me = await api.get('/api/v1/user/me', { token: session.body.access_token });
    assert.equal(me.body.user.kind, 'driver');
    assert.equal(me.body.business.id, tenant.businessId);
    const drivers = await api.get('/api/v1/client/drivers', { token: admin });
    assert.ok(drivers.body.drivers.some((d: { id: number }) => d.id === registration.user_id));

    const twice = await api.post(
      `/api/v1/client/driver-registrations/${registration.id}/reject`,
      {},
      { token: admin },
    );
    assert.equal(twice.status, 409);
    assert.equal(twice.body.error_code, 'REGISTRATION_ALREADY_DECIDED');
    const audit = await server.db
      .selectFrom('operation_audit')
      .select('operation')
      .where('operation', 'in', ['register_driver', 'approve_driver_registration'])
      .execute();
    assert.equal(audit.length, 2, 'both writes are audited');
  });

  it('rejects with a reason, and a rejected driver never signs in', async () => {
    await signUp({ email: 'ravi@example.org' });
    const registration = await pending('ravi@example.org');
    const rejected = await api.post(
      `/api/v1/client/driver-registrations/${registration.id}/reject`,
      { reason: 'No licence for vans' },
      { token: admin },
    );
    assert.equal(rejected.status, 200);
    const listed = await api.get('/api/v1/client/driver-registrations?status=rejected', { token: admin });
    const row = listed.body.registrations.find((r: { id: number }) => r.id === registration.id);
    assert.equal(row.reason, 'No licence for vans');
    assert.equal(row.decided_by, tenant.userIds.client_admin);
    const refused = await signIn('ravi@example.org');
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error_code, 'ACCOUNT_DISABLED');
  });

  it('answers the same for an email that already has an account, and creates nothing', async () => {
    const before = await api.get('/api/v1/client/driver-registrations', { token: admin });
    const taken = await signUp({ email: tenant.emails.employee });
    assert.equal(taken.status, 200);
    assert.deepEqual(taken.body, { result: true, status: 'pending_approval' });
    const after = await api.get('/api/v1/client/driver-registrations', { token: admin });
    assert.equal(after.body.total, before.body.total);
    assert.equal(
      (await signIn(tenant.emails.employee, 'correct horse battery')).status,
      200,
      'the account is untouched',
    );
  });

  it('refuses an unknown business and bad fields, in the caller’s language', async () => {
    const unknown = await signUp({ email: 'x@example.org', business_code: 'nope' });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error_code, 'BUSINESS_NOT_FOUND');
    const bad = await signUp(
      { email: 'not-an-email', password: 'short', phone: 'call me', vehicle_type: 'rocket' },
      { 'accept-language': 'fr' },
    );
    assert.equal(bad.status, 422);
    const fields = Object.fromEntries(
      bad.body.details.fields.map((f: { field: string; message: string }) => [f.field, f.message]),
    );
    assert.deepEqual(Object.keys(fields).sort(), ['email', 'password', 'phone', 'vehicle_type']);
    assert.equal(
      fields.phone,
      'Un numéro de téléphone est attendu : chiffres, espaces, ( ) . - et un + initial facultatif.',
    );
    assert.equal(bad.body.message, 'Certains champs sont invalides : email, password, phone, vehicle_type.');
  });

  it('keeps the queue to the business’s admins and staff, and decisions to its admins', async () => {
    await signUp({ email: 'queue@example.org' });
    const registration = await pending('queue@example.org');
    const employee = await login(api, tenant.emails.employee);
    assert.equal((await api.get('/api/v1/client/driver-registrations', { token: employee })).status, 200);
    const byEmployee = await api.post(
      `/api/v1/client/driver-registrations/${registration.id}/approve`,
      {},
      { token: employee },
    );
    assert.equal(byEmployee.status, 403);
    const otherAdmin = await login(api, other.emails.client_admin);
    const byOther = await api.post(
      `/api/v1/client/driver-registrations/${registration.id}/approve`,
      {},
      { token: otherAdmin },
    );
    assert.equal(byOther.status, 404);
    assert.equal(byOther.body.error_code, 'REGISTRATION_NOT_FOUND');
    const readOnly = await server.app.services.accounts.issueToken(server.db, {
      userId: tenant.userIds.client_admin,
      kind: 'agent',
    });
    const byAgent = await api.post(
      `/api/v1/client/driver-registrations/${registration.id}/approve`,
      {},
      { token: readOnly.token },
    );
    assert.equal(byAgent.body.error_code, 'INSUFFICIENT_SCOPE');
  });

  it('works over GraphQL too', async () => {
    const graphql = new GraphQLClient(`${server.baseUrl}/api/graphql`);
    const signedUp = await graphql.request<{ driverRegister: { status: string } }>(
      gql`
        mutation ($code: String!) {
          driverRegister(business_code: $code, name: "Gql Driver", email: "gql@example.org", password: "long enough pw") {
            status
          }
        }
      `,
      { code: tenant.code },
    );
    assert.equal(signedUp.driverRegister.status, 'pending_approval');
    const listed = await graphql.request<{
      driverRegistrations: { registrations: Array<{ email: string }> };
    }>(
      gql`
        {
          driverRegistrations(status: pending) {
            registrations {
              email
            }
          }
        }
      `,
      {},
      { authorization: `Bearer ${admin}` },
    );
    assert.ok(listed.driverRegistrations.registrations.some((r) => r.email === 'gql@example.org'));
  });

  it('limits sign-ups per client address, with Retry-After', async () => {
    const limited = await startTestServer({
      login: {
        attemptsPerAddressPerMinute: 100,
        failuresPerEmailPer15Minutes: 100,
        signUpsPerAddressPerHour: 2,
      },
    });
    try {
      const limitedApi = client(limited.baseUrl);
      const business = await createTenant(limited.db, limited.app.services, 'signup-limit');
      const attempt = (index: number) =>
        limitedApi.post(
          '/api/v1/driver/register',
          {
            business_code: business.code,
            name: 'Many',
            email: `many-${index}@example.org`,
            password: PASSWORD,
          },
          { headers: { 'accept-language': 'de' } },
        );
      assert.equal((await attempt(1)).status, 200);
      assert.equal((await attempt(2)).status, 200);
      const third = await attempt(3);
      assert.equal(third.status, 429);
      assert.equal(third.body.error_code, 'RATE_LIMITED');
      assert.ok(Number(third.headers.get('retry-after')) > 3000, 'about an hour');
      assert.match(third.body.message, /Sekunden/);
    } finally {
      await limited.close();
    }
  });
});
