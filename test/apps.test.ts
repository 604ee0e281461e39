import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { generateKeyPair, SignJWT } from 'jose';
import { createTenant, login, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { type OidcProviderHandle, startOidcProvider } from './support/oidc.ts';
import { startTestServer, type TestServer } from './support/server.ts';

const AUDIENCE = 'courier-app-backend';
const DEVICE = { device_id: 'device-1', device_platform: 'ios', app_version: '2.3.0' };

describe('platform apps: bootstrap and native sign-in', () => {
  let server: TestServer;
  let api: Client;
  let oidc: OidcProviderHandle;
  let a: Tenant;
  let b: Tenant;
  let unassigned: Tenant;
  let platform: string;

  const put = (path: string, body: unknown, token = platform) => api.call('PUT', path, { token, body });
  const bootstrap = (query = '', headers: Record<string, string> = {}, client = a.code, app = 'courier') =>
    api.call('GET', `/api/v1/apps/${app}/clients/${client}/bootstrap${query}`, { headers });
  const signIn = (idToken: string, options: { client?: string; idp?: string; app?: string } = {}) =>
    api.post(
      `/api/v1/apps/${options.app ?? 'courier'}/clients/${options.client ?? a.code}/auth/${options.idp ?? 'acme'}`,
      { id_token: idToken, ...DEVICE },
    );
  const token = (claims: { sub: string; email?: string; emailVerified?: boolean; name?: string }) =>
    oidc.idToken({ clientId: AUDIENCE, emailVerified: true, ...claims });
  const assign = (client: string, body: unknown, app = 'courier') =>
    put(`/api/v1/platform/apps/${app}/clients/${client}`, body);

  before(async () => {
    server = await startTestServer({
      identity: { allow: { loopback: true, privateNetworks: false }, timeoutMs: 5000 },
    });
    // ID tokens carry the real time: the service's clock reads it too.
    server.clock.set(new Date());
    api = client(server.baseUrl);
    oidc = await startOidcProvider({ clientIds: [AUDIENCE, 'another-app'] });
    a = await createTenant(server.db, server.app.services, 'apps-a');
    b = await createTenant(server.db, server.app.services, 'apps-b');
    unassigned = await createTenant(server.db, server.app.services, 'apps-c');
    platform = await login(api, a.emails.platform_admin);

    const provider = await put('/api/v1/platform/identity-providers/acme', {
      issuer: oidc.issuer,
      name: 'Acme ID',
    });
    assert.equal(provider.status, 200, JSON.stringify(provider.body));
    assert.equal(provider.body.provider.jwks_uri, oidc.jwksUri);
    const app = await put('/api/v1/platform/apps/courier', {
      name: 'Courier',
      type: 'customer',
      schema_version: 3,
      allowed_roles: ['customer', 'driver'],
    });
    assert.equal(app.status, 200, JSON.stringify(app.body));
    const config = {
      display_name: 'Courier A',
      capabilities: {
        'wallet.balance': true,
        'orders.send': true,
        'locker.pickup': false,
        'wallet.pay': true,
      },
      authentication: {
        methods: { email: true, acme: true },
        providers: { acme: { server_client_id: AUDIENCE } },
      },
      registration: { enabled: true },
      version_policy: { ios: { minimum_version: '2.0.0', latest_version: '2.3.0' } },
      quick_actions: { order: ['wallet', 'send', 'lockers', 'pay'], hidden: ['pay'] },
      branding: { primary_color: '#1f6feb' },
    };
    assert.equal((await assign(a.code, { config })).status, 200);
    const ofB = await assign(b.code, {
      config: { ...config, display_name: null, registration: { enabled: false } },
    });
    assert.equal(ofB.status, 200, JSON.stringify(ofB.body));
  });
  after(async () => {
    await server.close();
    await oidc.close();
  });

  describe('bootstrap', () => {
    it('answers the data of the interface, with effective capabilities and filtered quick actions', async () => {
      const answer = await bootstrap('?platform=ios&app_version=2.3.0');
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const data = answer.body.data;
      assert.deepEqual(data.app, { code: 'courier', name: 'Courier', type: 'customer', schema_version: 3 });
      assert.deepEqual(data.client, { code: a.code, display_name: 'Courier A' });
      assert.equal(data.configuration_version, 1);
      assert.deepEqual(data.capabilities, {
        'auth.acme': true,
        'auth.email': true,
        'auth.registration': true,
        'locker.pickup': false,
        'orders.send': true,
        'wallet.balance': true,
        'wallet.pay': true,
      });
      assert.deepEqual(data.authentication.methods, { acme: true, email: true, registration: true });
      assert.deepEqual(data.authentication.acme, { server_client_id: AUDIENCE });
      assert.equal(data.authentication.registration.enabled, true);
      assert.equal(data.authentication.registration.code_length, 6);
      assert.deepEqual(data.services.identity, { source_of_truth: 'tms', shared_with_web: true });
      assert.equal(data.services.wallet.ledger_mode, 'credits');
      // lockers: its capability is off; pay: hidden by the client.
      assert.deepEqual(data.settings.home.quick_actions, ['wallet', 'send']);
      assert.equal(data.branding.primary_color, '#1f6feb');
      assert.equal(data.version_policy.status, 'supported');
      // The other client's name is its business's.
      const ofB = await bootstrap('', {}, b.code);
      assert.equal(ofB.body.data.client.display_name, `Business ${b.code}`);
      assert.equal(ofB.body.data.authentication.methods.registration, false);
    });

    it('tells where an app version stands against the policy of its platform', async () => {
      const status = async (query: string) => (await bootstrap(query)).body.data.version_policy.status;
      assert.equal(await status('?platform=ios&app_version=1.9.9'), 'update_required');
      assert.equal(await status('?platform=ios&app_version=2.0.0-beta.1'), 'update_required');
      assert.equal(await status('?platform=ios&app_version=2.1.0'), 'update_available');
      assert.equal(await status('?platform=ios&app_version=2.10.0'), 'supported');
      assert.equal(await status('?platform=android&app_version=1.0.0'), 'unknown');
      assert.equal(await status(''), 'unknown');
    });

    it('answers 304 to a current ETag, and a new ETag after every configuration change', async () => {
      const first = await bootstrap();
      const etag = first.headers.get('etag');
      assert.match(etag ?? '', /^"[\w-]+"$/);
      const same = await bootstrap('', { 'if-none-match': etag! });
      assert.equal(same.status, 304);
      assert.equal(same.body, '');
      assert.equal((await bootstrap('', { 'if-none-match': `W/${etag}, "other"` })).status, 304);
      // Saving the same configuration changes nothing; a change bumps the version and the ETag.
      assert.equal(
        (await assign(a.code, { config: { capabilities: { 'wallet.balance': true } } })).body.assignment
          .configuration_version,
        1,
      );
      assert.equal((await bootstrap('', { 'if-none-match': etag! })).status, 304);
      const changed = await assign(a.code, { config: { capabilities: { 'locker.pickup': true } } });
      assert.equal(changed.body.assignment.configuration_version, 2);
      const after = await bootstrap('', { 'if-none-match': etag! });
      assert.equal(after.status, 200);
      assert.notEqual(after.headers.get('etag'), etag);
      assert.equal(after.body.data.configuration_version, 2);
      assert.deepEqual(after.body.data.settings.home.quick_actions, ['wallet', 'send', 'lockers']);
    });

    it('answers 422 for a bad platform or app version', async () => {
      for (const query of [
        '?platform=windows',
        '?app_version=1.2',
        '?app_version=01.2.3',
        '?platform=ios&app_version=v2',
      ]) {
        const answer = await bootstrap(query);
        assert.equal(answer.status, 422, query);
        assert.equal(answer.body.error_code, 'VALIDATION_FAILED');
      }
    });

    it('answers 404 for an app, client or pair that does not exist', async () => {
      for (const [app, clientCode] of [
        ['nope', a.code],
        ['courier', 'no-such-client'],
        ['courier', unassigned.code],
      ] as const) {
        const answer = await bootstrap('', {}, clientCode, app);
        assert.equal(answer.status, 404, `${app}/${clientCode}`);
        assert.equal(answer.body.error_code, 'APP_NOT_FOUND');
        assert.equal(answer.body.result, false);
      }
    });

    it('answers 403 while the assignment or the app is off', async () => {
      await assign(b.code, { enabled: false });
      const off = await bootstrap('', {}, b.code);
      assert.equal(off.status, 403);
      assert.equal(off.body.error_code, 'APP_UNAVAILABLE');
      await assign(b.code, { enabled: true });
      assert.equal((await bootstrap('', {}, b.code)).status, 200);

      const app = {
        name: 'Courier',
        type: 'customer',
        schema_version: 3,
        allowed_roles: ['customer', 'driver'],
      };
      await put('/api/v1/platform/apps/courier', { ...app, enabled: false });
      assert.equal((await bootstrap()).status, 403);
      assert.equal((await signIn(await token({ sub: 'x', email: a.emails.customer }))).status, 403);
      await put('/api/v1/platform/apps/courier', { ...app, enabled: true });
      assert.equal((await bootstrap()).status, 200);
    });
  });

  describe('native sign-in', () => {
    it('links a known account by its verified email and answers an app session that works on the API', async () => {
      const answer = await signIn(await token({ sub: 'customer-a', email: a.emails.customer, name: 'Ann' }));
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const session = answer.body;
      assert.equal(session.result, true);
      assert.equal(session.token_type, 'Bearer');
      assert.match(session.access_token, /^tms_/);
      assert.match(session.expires_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      assert.ok(session.expires_timestamp > Date.now() / 1000);
      assert.deepEqual(session.user, {
        id: a.userIds.customer,
        name: `customer of ${a.code}`,
        email: a.emails.customer,
      });
      assert.deepEqual(session.app_context, {
        app_code: 'courier',
        client_code: a.code,
        client_name: 'Courier A',
        configuration_version: 2,
      });
      const me = await api.get('/api/v1/user/me', { token: session.access_token });
      assert.equal(me.status, 200);
      assert.equal(me.body.token.kind, 'app');
      assert.equal(me.body.token.client_id, a.businessId);
      const orders = await api.get('/api/v1/client/orders', { token: session.access_token });
      assert.equal(orders.status, 200, JSON.stringify(orders.body));
      // The device is recorded for the assignment.
      const devices = await server.db
        .selectFrom('app_devices')
        .select(['device_id', 'platform', 'app_version'])
        .where('user_id', '=', a.userIds.customer)
        .execute();
      assert.deepEqual(devices, [{ device_id: 'device-1', platform: 'ios', app_version: '2.3.0' }]);
      // The binding now holds, whatever email a later token carries.
      const again = await signIn(await token({ sub: 'customer-a', email: 'changed@elsewhere.test' }));
      assert.equal(again.status, 200);
      assert.equal(again.body.user.id, a.userIds.customer);
    });

    it('answers 404 for an app or client that does not exist, and 422 for a bad body', async () => {
      const idToken = await token({ sub: 'customer-a', email: a.emails.customer });
      for (const options of [{ app: 'nope' }, { client: 'no-such-client' }, { client: unassigned.code }]) {
        const answer = await signIn(idToken, options);
        assert.equal(answer.status, 404, JSON.stringify(options));
        assert.equal(answer.body.error_code, 'APP_NOT_FOUND');
      }
      const path = `/api/v1/apps/courier/clients/${a.code}/auth/acme`;
      for (const body of [
        { ...DEVICE, id_token: idToken, device_platform: 'windows' },
        { ...DEVICE, id_token: idToken, device_id: 'x'.repeat(192) },
        { ...DEVICE, id_token: idToken, app_version: 'latest' },
        { ...DEVICE },
      ]) {
        const answer = await api.post(path, body);
        assert.equal(answer.status, 422, JSON.stringify(body).slice(0, 80));
        assert.equal(answer.body.error_code, 'VALIDATION_FAILED');
      }
      // At the limit, and without an app version, it signs in.
      const longest = await api.post(path, {
        ...DEVICE,
        id_token: idToken,
        device_id: 'd'.repeat(191),
        app_version: null,
      });
      assert.equal(longest.status, 200, JSON.stringify(longest.body));
    });

    it('answers 401 for a wrong audience, a wrong issuer, an expired token, an unknown key and a forged signature', async () => {
      const genuine = await token({ sub: 'customer-a', email: a.emails.customer });
      const refused = async (idToken: string, problem: string, options = {}) => {
        const answer = await signIn(idToken, options);
        assert.equal(answer.status, 401, `${problem}: ${JSON.stringify(answer.body)}`);
        assert.equal(answer.body.error_code, 'ID_TOKEN_INVALID');
        assert.equal(answer.body.details.problem, problem);
      };
      await refused(await oidc.idToken({ clientId: 'another-app', sub: 'customer-a' }), 'audience');

      // A provider whose issuer is not the one that signed the token (same keys address).
      await server.db
        .insertInto('identity_providers')
        .values({
          code: 'impostor',
          name: 'Impostor',
          issuer: 'https://id.impostor.test',
          issuer_aliases: [],
          jwks_uri: oidc.jwksUri,
          preset: null,
          created_at: new Date(),
          updated_at: new Date(),
        })
        .execute();
      await assign(a.code, {
        config: {
          authentication: {
            methods: { impostor: true },
            providers: { impostor: { server_client_id: AUDIENCE } },
          },
        },
      });
      await refused(genuine, 'issuer', { idp: 'impostor' });

      server.clock.advance(2 * 3600_000);
      await refused(genuine, 'expired');
      server.clock.set(new Date());

      const { privateKey } = await generateKeyPair('RS256');
      const foreign = await new SignJWT({ email: a.emails.customer, email_verified: true })
        .setProtectedHeader({ alg: 'RS256', kid: randomUUID() })
        .setIssuer(oidc.issuer)
        .setAudience(AUDIENCE)
        .setSubject('customer-a')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(privateKey);
      await refused(foreign, 'unknown_key');

      const [header, payload, signature] = genuine.split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      const forgedPayload = Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString(
        'base64url',
      );
      await refused(`${header}.${forgedPayload}.${signature}`, 'signature');

      await refused('not-a-token', 'malformed');
      // And the genuine one still passes.
      assert.equal((await signIn(genuine)).status, 200);
    });

    it('refuses a token that cannot be valid (401) without reading keys, even when they cannot be read', async () => {
      // A provider whose keys address answers nothing: a closed loopback port.
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const { port } = closed.address() as AddressInfo;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      await server.db
        .insertInto('identity_providers')
        .values({
          code: 'silent',
          name: 'Silent',
          issuer: 'https://id.silent.test',
          issuer_aliases: [],
          jwks_uri: `http://127.0.0.1:${port}/jwks`,
          preset: null,
          created_at: new Date(),
          updated_at: new Date(),
        })
        .execute();
      await assign(a.code, {
        config: {
          authentication: {
            methods: { silent: true },
            providers: { silent: { server_client_id: AUDIENCE } },
          },
        },
      });
      const { privateKey } = await generateKeyPair('ES256');
      const signed = (claims: { iss?: string; aud?: string; exp?: Date }) =>
        new SignJWT({ email: a.emails.customer, email_verified: true })
          .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
          .setIssuer(claims.iss ?? 'https://id.silent.test')
          .setAudience(claims.aud ?? AUDIENCE)
          .setSubject('customer-a')
          .setIssuedAt()
          .setExpirationTime(claims.exp ?? '1h')
          .sign(privateKey);
      const hmac = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer('https://id.silent.test')
        .setAudience(AUDIENCE)
        .setSubject('customer-a')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode('a shared secret of thirty-two bytes!'));
      const [header, payload] = (await signed({})).split('.');
      const cases: Array<[string, string]> = [
        ['garbage', 'malformed'],
        ['a.b.c', 'malformed'],
        [`${header}.${payload}`, 'malformed'],
        [`${header}.bm90IGpzb24.c2ln`, 'malformed'],
        [hmac, 'malformed'],
        [await signed({ iss: 'https://elsewhere.test' }), 'issuer'],
        [await signed({ aud: 'another-app' }), 'audience'],
        [await signed({ exp: new Date(Date.now() - 60_000) }), 'expired'],
      ];
      for (const [idToken, problem] of cases) {
        const answer = await signIn(idToken, { idp: 'silent' });
        assert.equal(answer.status, 401, `${problem}: ${JSON.stringify(answer.body)}`);
        assert.equal(answer.body.error_code, 'ID_TOKEN_INVALID');
        assert.equal(answer.body.details.problem, problem);
      }
      // A token that could be valid needs the keys: the provider is then unreachable.
      const plausible = await signIn(await signed({}), { idp: 'silent' });
      assert.equal(plausible.status, 502, JSON.stringify(plausible.body));
      assert.equal(plausible.body.error_code, 'IDENTITY_PROVIDER_UNREACHABLE');
    });

    it('registers an unknown identity where registration is on, and refuses it (401) where it is off', async () => {
      const newcomer = await token({ sub: 'newcomer', email: 'newcomer@mail.test', name: 'New Comer' });
      const offInB = await signIn(newcomer, { client: b.code });
      assert.equal(offInB.status, 401);
      assert.equal(offInB.body.error_code, 'IDENTITY_NOT_REGISTERED');

      const registered = await signIn(newcomer);
      assert.equal(registered.status, 200, JSON.stringify(registered.body));
      assert.equal(registered.body.user.email, 'newcomer@mail.test');
      assert.equal(registered.body.user.name, 'New Comer');
      const user = await server.db
        .selectFrom('users')
        .select(['kind', 'business_id', 'password_hash'])
        .where('id', '=', registered.body.user.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(user, { kind: 'customer', business_id: a.businessId, password_hash: null });

      const unverified = await signIn(
        await token({ sub: 'unverified', email: 'u@mail.test', emailVerified: false }),
      );
      assert.equal(unverified.status, 401);
      assert.equal(unverified.body.error_code, 'IDENTITY_NOT_REGISTERED');
    });

    it('keeps a registration waiting for approval, and says so (403)', async () => {
      await assign(a.code, { config: { registration: { requires_approval: true } } });
      const waiting = await signIn(await token({ sub: 'waiting', email: 'waiting@mail.test' }));
      assert.equal(waiting.status, 403, JSON.stringify(waiting.body));
      assert.equal(waiting.body.error_code, 'APP_SIGN_IN_REFUSED');
      assert.equal(waiting.body.details.reason, 'pending_approval');
      const user = await server.db
        .selectFrom('users')
        .select(['disabled'])
        .where('email', '=', 'waiting@mail.test')
        .executeTakeFirstOrThrow();
      assert.equal(user.disabled, true, 'the registration stands, switched off until approved');
      const later = await signIn(await token({ sub: 'waiting', email: 'waiting@mail.test' }));
      assert.equal(later.body.details.reason, 'account_disabled');
      await assign(a.code, { config: { registration: { requires_approval: false } } });
    });

    it('answers 403 for a role the app does not allow, another client, or a provider not on for the app', async () => {
      const reason = async (answer: Awaited<ReturnType<typeof signIn>>) => {
        assert.equal(answer.status, 403, JSON.stringify(answer.body));
        assert.equal(answer.body.error_code, 'APP_SIGN_IN_REFUSED');
        return answer.body.details.reason;
      };
      assert.equal(
        await reason(await signIn(await token({ sub: 'employee-a', email: a.emails.employee }))),
        'role_not_allowed',
      );
      // B's customer signs in to B's app (linked by email), then tries A's with the same identity.
      const customerOfB = await token({ sub: 'customer-b', email: b.emails.customer });
      assert.equal((await signIn(customerOfB, { client: b.code })).status, 200);
      assert.equal(await reason(await signIn(customerOfB)), 'other_client');
      // An unknown identity whose email is an account of another client is not registered twice.
      assert.equal(
        await reason(await signIn(await token({ sub: 'driver-b', email: b.emails.driver }))),
        'email_taken',
      );
      assert.equal(
        await reason(
          await signIn(await token({ sub: 'customer-a', email: a.emails.customer }), { idp: 'google' }),
        ),
        'method_disabled',
      );
    });

    it('keeps an app session inside its client, for a contractor of two clients too', async () => {
      const session = (await signIn(await token({ sub: 'customer-a', email: a.emails.customer }))).body
        .access_token;
      const orderOfB = await api.post(
        '/api/v1/client/orderCreate',
        { dropoff: { line1: 'B street' } },
        { token: await login(api, b.emails.client_admin) },
      );
      const read = await api.get(`/api/v1/client/orders/${orderOfB.body.order_id}`, { token: session });
      assert.equal(read.status, 404);

      // A contractor company working for A and B, and a contractor app assigned to A.
      const company = await server.app.services.accounts.createContractorCompany(server.db, {
        name: 'Both ways',
        businessIds: [a.businessId, b.businessId],
      });
      await server.app.services.accounts.createUser(server.db, {
        kind: 'contractor',
        email: 'rider@both.test',
        name: 'Rider',
        password: 'correct horse battery',
        contractorCompanyId: company,
      });
      await put('/api/v1/platform/apps/fleet', {
        name: 'Fleet',
        type: 'contractor',
        schema_version: 1,
        allowed_roles: ['contractor'],
      });
      await assign(
        a.code,
        {
          config: {
            authentication: { methods: { acme: true }, providers: { acme: { server_client_id: AUDIENCE } } },
          },
        },
        'fleet',
      );
      const signed = await signIn(await token({ sub: 'rider', email: 'rider@both.test' }), { app: 'fleet' });
      assert.equal(signed.status, 200, JSON.stringify(signed.body));
      const rider = signed.body.access_token;
      const inA = await api.get('/api/v1/client/orders', { token: rider });
      assert.equal(inA.status, 200, JSON.stringify(inA.body));
      const inB = await api.get(`/api/v1/client/orders?business_id=${b.businessId}`, { token: rider });
      assert.equal(inB.status, 403);
      // The same account signed in with its password still works for both.
      const password = await login(api, 'rider@both.test');
      assert.equal(
        (await api.get(`/api/v1/client/orders?business_id=${b.businessId}`, { token: password })).status,
        200,
      );
      const me = await api.get('/api/v1/user/me', { token: rider });
      assert.deepEqual(
        me.body.contractor_company.businesses.map((business: { id: number }) => business.id),
        [a.businessId],
      );
    });
  });

  describe('administration', () => {
    it('configures Google and Apple by preset, and refuses a discovery address on a private network', async () => {
      const google = await put('/api/v1/platform/identity-providers/google', { preset: 'google' });
      assert.equal(google.status, 200, JSON.stringify(google.body));
      assert.equal(google.body.provider.issuer, 'https://accounts.google.com');
      assert.deepEqual(google.body.provider.issuer_aliases, ['accounts.google.com']);
      const apple = await put('/api/v1/platform/identity-providers/apple', { preset: 'apple' });
      assert.equal(apple.body.provider.jwks_uri, 'https://appleid.apple.com/auth/keys');
      const private_ = await put('/api/v1/platform/identity-providers/internal', {
        issuer: 'http://10.1.2.3',
      });
      assert.equal(private_.status, 502);
      assert.equal(private_.body.error_code, 'IDENTITY_PROVIDER_UNREACHABLE');
      const both = await put('/api/v1/platform/identity-providers/both', {
        preset: 'google',
        issuer: oidc.issuer,
      });
      assert.equal(both.status, 422);
      const listed = await api.get('/api/v1/platform/identity-providers', { token: platform });
      assert.deepEqual(
        listed.body.providers.map((p: { code: string }) => p.code),
        ['acme', 'apple', 'google', 'impostor', 'silent'],
      );
    });

    it('reads no identity provider document on a dry run, and says so instead of guessing', async () => {
      let reads = 0;
      const watcher = createServer((_request, response) => {
        reads++;
        response.writeHead(404).end();
      });
      await new Promise<void>((resolve) => watcher.listen(0, '127.0.0.1', resolve));
      const issuer = `http://127.0.0.1:${(watcher.address() as AddressInfo).port}`;
      try {
        const preview = await api.call('PUT', '/api/v1/platform/identity-providers/watched', {
          token: platform,
          body: { issuer },
          headers: { 'x-dry-run': '1' },
        });
        assert.equal(preview.status, 409, JSON.stringify(preview.body));
        assert.equal(preview.body.error_code, 'DRY_RUN_UNAVAILABLE');
        assert.ok(
          preview.body.message.includes(`GET ${issuer}/.well-known/openid-configuration`),
          preview.body.message,
        );
        assert.equal(reads, 0, 'the discovery document was not read');
      } finally {
        await new Promise((resolve) => watcher.close(resolve));
      }
      // Keys the service already holds need no outside call: a dry-run sign-in runs in full.
      const signedIn = await api.post(
        `/api/v1/apps/courier/clients/${a.code}/auth/acme`,
        { id_token: await token({ sub: 'dry-run-rider', email: a.emails.customer }), ...DEVICE },
        { headers: { 'x-dry-run': '1' } },
      );
      assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
      assert.equal(signedIn.body.dry_run, true);
      assert.deepEqual(signedIn.body.skipped_effects, []);
    });

    it('refuses a configuration naming an unknown identity provider, and lets a client admin read its own', async () => {
      const unknown = await assign(a.code, {
        config: {
          authentication: { methods: { okta: true }, providers: { okta: { server_client_id: 'x' } } },
        },
      });
      assert.equal(unknown.status, 422);
      assert.equal(unknown.body.error_code, 'IDENTITY_PROVIDER_NOT_FOUND');
      const invalid = await assign(a.code, { config: { quick_actions: { order: ['teleport'] } } });
      assert.equal(invalid.status, 422);
      const adminOfA = await login(api, a.emails.client_admin);
      const own = await api.get(`/api/v1/platform/apps/courier/clients/${a.code}`, { token: adminOfA });
      assert.equal(own.status, 200);
      assert.equal(own.body.assignment.config.display_name, 'Courier A');
      const list = await api.get('/api/v1/platform/app-assignments', { token: adminOfA });
      assert.deepEqual(
        list.body.assignments.map(
          (row: { app_code: string; client_code: string }) => `${row.app_code}@${row.client_code}`,
        ),
        [`courier@${a.code}`, `fleet@${a.code}`],
      );
    });
  });
});
