import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { ACCOUNT_KINDS } from '../src/platform/catalog/operation.ts';
import { login } from './support/fixtures.ts';
import type { TestServer } from './support/server.ts';
import { SMS_SETTINGS, type SmsBusiness, smsBusiness } from './support/sms.ts';
import { addSubscriber, messagesTo, smsServer, subscriberOf } from './support/sms-subscribers.ts';

describe('SMS subscribers: numbers, double opt-in with evidence, imports', () => {
  let server: TestServer;
  let business: SmsBusiness;

  before(async () => {
    ({ server } = await smsServer({ subscribesPerAddressPerHour: 3 }));
    business = await smsBusiness(server, 'sms-subs');
  });

  after(async () => {
    await server?.close();
  });

  it('normalises numbers in the default region and refuses invalid ones naming the field', async () => {
    const { api, admin } = business;
    const french = await addSubscriber(api, admin, '06 12 34 56 78');
    assert.equal(french.phone, '+33612345678');
    assert.equal(french.status, 'pending');
    assert.equal(french.language, 'fr', 'a French number reads French');
    assert.equal(french.time_zone, 'Europe/Paris');
    const american = await addSubscriber(api, admin, '+1 212 555 0100'.replace('555 0100', '456 7890'));
    assert.equal(american.language, 'en');
    assert.equal(
      american.time_zone,
      'America/New_York',
      "a country of many zones: its most populous, not the business's",
    );
    const given = await addSubscriber(api, admin, '+49 30 901820', {
      time_zone: 'Europe/Berlin',
      language: 'en',
    });
    assert.equal(given.language, 'en', 'a given language wins');
    for (const phone of ['12', '06 12', '+33 1', 'not a number']) {
      const refused = await api.post('/api/v1/sms/subscribers', { phone, source: 'api' }, { token: admin });
      assert.equal(refused.status, 422, `${phone}: ${JSON.stringify(refused.body)}`);
      assert.equal(refused.body.error_code, 'VALIDATION_FAILED');
      assert.equal(refused.body.details.fields[0].field, 'phone');
    }
    const zone = await api.post(
      '/api/v1/sms/subscribers',
      { phone: '0612345679', source: 'api', time_zone: 'Mars/Olympus' },
      { token: admin },
    );
    assert.equal(zone.status, 422);
    assert.equal(zone.body.details.fields[0].field, 'time_zone');
    const tags = await api.post(
      '/api/v1/sms/subscribers',
      { phone: '0612345679', source: 'api', tags: ['x'.repeat(41)] },
      { token: admin },
    );
    assert.equal(tags.status, 422);
  });

  it('keeps a never confirmed subscriber pending, with the request as its evidence and a confirmation in its language', async () => {
    const { api, admin } = business;
    const made = await addSubscriber(api, admin, '0611111111', {
      requested_from: 'till 3, shop Rivoli',
      tags: ['vip'],
    });
    const found = await subscriberOf(api, admin, made.id);
    assert.equal(found.status, 'pending');
    assert.equal(found.evidence.length, 1);
    assert.deepEqual(
      { ...found.evidence[0], at: undefined },
      {
        event: 'requested',
        source: 'api',
        consent_text: SMS_SETTINGS.consent_text,
        consent_version: SMS_SETTINGS.consent_version,
        requested_from: 'till 3, shop Rivoli',
        message_text: null,
        message_id: null,
        at: undefined,
      },
    );
    const messages = await messagesTo(server, '+33611111111');
    assert.equal(messages.length, 1);
    assert.equal(messages[0]!.kind, 'confirmation');
    assert.match(messages[0]!.body, /OUI/, 'French asks for OUI');
    assert.match(messages[0]!.body, new RegExp(`/api/v1/sms/confirm/${made.id}\\?signature=`));
    // Asked again the same day: more evidence, no second message.
    await addSubscriber(api, admin, '+33611111111', { source: 'form' });
    assert.equal((await subscriberOf(api, admin, made.id)).evidence.length, 2);
    assert.equal((await messagesTo(server, '+33611111111')).length, 1);
    const pending = await api.get('/api/v1/sms/subscribers?status=pending&tag=vip', { token: admin });
    assert.equal(pending.status, 200, JSON.stringify(pending.body));
    assert.deepEqual(
      pending.body.subscribers.map((one: { id: number }) => one.id),
      [made.id],
    );
    assert.equal(pending.body.total, 1);
  });

  it('confirms through the signed link only, and refuses a tampered one', async () => {
    const { api, admin } = business;
    const made = await addSubscriber(api, admin, '0622222222');
    const [message] = await messagesTo(server, '+33622222222');
    const link = /\/api\/v1\/sms\/confirm\/\d+\?signature=[\w-]+/.exec(message!.body)![0];
    const page = await api.call('GET', link, { headers: { accept: 'text/html' } });
    assert.equal(page.status, 200);
    assert.match(page.body, /<form method="post"/);
    assert.equal(
      (await subscriberOf(api, admin, made.id)).status,
      'pending',
      'opening the link changes nothing',
    );
    const tampered = link.replace(/signature=(.)/, (_all, first) => `signature=${first === 'A' ? 'B' : 'A'}`);
    const forged = await api.post(tampered, {});
    assert.equal(forged.status, 403);
    assert.equal(forged.body.error_code, 'SMS_LINK_INVALID');
    const other = await addSubscriber(api, admin, '0622222223');
    const elsewhere = await api.post(link.replace(`/confirm/${made.id}`, `/confirm/${other.id}`), {});
    assert.equal(elsewhere.status, 403, 'a link confirms only the subscriber it names');
    assert.equal((await subscriberOf(api, admin, made.id)).status, 'pending');
    const confirmed = await api.call('POST', link, {
      body: '',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'text/html',
        'user-agent': 'PhoneBrowser/1',
      },
    });
    assert.equal(confirmed.status, 200, confirmed.body);
    assert.match(confirmed.body, /confirm/i);
    const found = await subscriberOf(api, admin, made.id);
    assert.equal(found.status, 'confirmed');
    assert.deepEqual(
      found.evidence.map((one) => [one.event, one.source]),
      [
        ['requested', 'api'],
        ['confirmed', 'link'],
      ],
    );
    assert.match(found.evidence[1]!.requested_from!, /user agent PhoneBrowser\/1/);
    // A confirmed subscriber asked again stays confirmed.
    const again = await api.post(
      '/api/v1/sms/subscribers',
      { phone: '0622222222', source: 'form' },
      { token: admin },
    );
    assert.equal(again.body.outcome, 'unchanged');
    assert.equal(again.body.subscriber.status, 'confirmed');
  });

  it("takes the business's public form with the caller's address and browser, limited per address", async () => {
    const { api, admin, tenant } = business;
    const unknown = await api.post('/api/v1/sms/subscribe/no-such-business', {
      phone: '0633333333',
      consent: true,
    });
    assert.equal(unknown.status, 404);
    const form = await api.post(
      `/api/v1/sms/subscribe/${tenant.code}`,
      { phone: '0633333333', consent: true },
      { headers: { 'user-agent': 'FormBrowser/2' } },
    );
    assert.equal(form.status, 200, JSON.stringify(form.body));
    const listed = await api.get('/api/v1/sms/subscribers?status=pending&per_page=200', { token: admin });
    const made = listed.body.subscribers.find((one: { phone: string }) => one.phone === '+33633333333');
    const found = await subscriberOf(api, admin, made.id);
    assert.equal(found.evidence[0]!.source, 'form');
    assert.match(found.evidence[0]!.requested_from!, /^ip 127\.0\.0\.1; user agent FormBrowser\/2$/);
    const noConsent = await api.post(`/api/v1/sms/subscribe/${tenant.code}`, { phone: '0633333334' });
    assert.equal(noConsent.status, 422);
    const third = await api.post(`/api/v1/sms/subscribe/${tenant.code}`, {
      phone: '0633333335',
      consent: true,
    });
    assert.equal(third.status, 200);
    const limited = await api.post(`/api/v1/sms/subscribe/${tenant.code}`, {
      phone: '0633333336',
      consent: true,
    });
    assert.equal(limited.status, 429, 'the fourth request of the hour from one address');
  });

  it('imports rows with evidence as confirmed and rows without as pending; an invalid row refuses the whole list', async () => {
    const { api, admin } = business;
    const stopped = await addSubscriber(api, admin, '0644444440');
    await sql`UPDATE sms_subscribers SET status = 'unsubscribed', unsubscribed_at = now() WHERE id = ${stopped.id}`.execute(
      server.db,
    );
    const evidence = {
      consent_text: 'Yes to texts from the old shop',
      consent_version: 'paper-2025',
      consented_at: '2026-03-01T10:00:00Z',
      requested_from: 'paper form 17',
      source: 'form',
    };
    const invalid = await api.post(
      '/api/v1/sms/subscribers/import',
      {
        rows: [
          { phone: '0644444441', ...evidence },
          { phone: 'nope' },
          { phone: '0644444442', consent_text: 'half the evidence' },
        ],
      },
      { token: admin },
    );
    assert.equal(invalid.status, 422, JSON.stringify(invalid.body));
    assert.deepEqual(
      invalid.body.details.fields.map((field: { field: string; row: number }) => [field.field, field.row]),
      [
        ['rows.1.phone', 2],
        ['rows.2.consent_version', 3],
        ['rows.2.consented_at', 3],
      ],
    );
    assert.match(invalid.body.details.fields[0].message, /Row 2/);
    assert.equal(
      (await messagesTo(server, '+33644444441')).length,
      0,
      'nothing of a refused import is written',
    );
    const imported = await api.post(
      '/api/v1/sms/subscribers/import',
      {
        rows: [
          { phone: '0644444441', tags: ['old-shop'], ...evidence },
          { phone: '0644444442', language: 'es' },
          { phone: '0644444440', ...evidence },
          { phone: '0644444442' },
        ],
      },
      { token: admin },
    );
    assert.equal(imported.status, 200, JSON.stringify(imported.body));
    assert.deepEqual(imported.body, {
      result: true,
      rows: 4,
      created: 2,
      confirmed: 1,
      pending: 2,
      unchanged: 0,
      unsubscribed: 1,
    });
    const all = (await api.get('/api/v1/sms/subscribers?per_page=200', { token: admin })).body.subscribers;
    // A list of subscribers grows without bound: it pages by cursor too, oldest first.
    const firstTwo = await api.get('/api/v1/sms/subscribers?per_page=2', { token: admin });
    const nextTwo = await api.get(`/api/v1/sms/subscribers?per_page=2&cursor=${firstTwo.body.next_cursor}`, {
      token: admin,
    });
    assert.deepEqual(
      [...firstTwo.body.subscribers, ...nextTwo.body.subscribers].map((one: { id: number }) => one.id),
      all.slice(0, 4).map((one: { id: number }) => one.id),
    );
    assert.equal(nextTwo.body.page, 2);
    const byPhone = (phone: string) => all.find((one: { phone: string }) => one.phone === phone);
    const confirmed = await subscriberOf(api, admin, byPhone('+33644444441').id);
    assert.equal(confirmed.status, 'confirmed');
    assert.deepEqual(
      confirmed.evidence.map((one) => [one.event, one.source, one.consent_version, one.at]),
      [
        ['requested', 'import', 'paper-2025', '2026-03-01T10:00:00.000Z'],
        ['confirmed', 'import', null, '2026-03-01T10:00:00.000Z'],
      ],
    );
    assert.match(confirmed.evidence[0]!.requested_from!, /paper form 17; import row 1/);
    assert.equal(
      (await messagesTo(server, '+33644444441')).length,
      0,
      'a consented row is sent no confirmation',
    );
    const pending = await subscriberOf(api, admin, byPhone('+33644444442').id);
    assert.equal(pending.status, 'pending');
    const asked = await messagesTo(server, '+33644444442');
    assert.equal(asked.length, 1, 'the same number twice is asked once');
    assert.match(asked[0]!.body, /Responda SI/);
    assert.equal(byPhone('+33644444440').status, 'unsubscribed', 'an import never brings back a STOP');
  });

  it('imports 10,000 rows in batches, answering other requests meanwhile', async () => {
    const { api, admin } = business;
    const service = server.app.services.sms.subscribers;
    const rows = Array.from({ length: 10_000 }, (_, index) => ({
      phone: `+3367${String(index).padStart(7, '0')}`,
      ...(index % 2
        ? { consent_text: 'Yes', consent_version: 'v1', consented_at: '2026-01-01T00:00:00Z' }
        : {}),
    }));
    const order: string[] = [];
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const original = service.import;
    service.import = (...args) => {
      started();
      return original.apply(service, args).finally(() => order.push('import worked'));
    };
    try {
      const imported = api.post('/api/v1/sms/subscribers/import', { rows }, { token: admin });
      await running;
      for (let read = 1; read <= 3; read++) {
        assert.equal((await api.get('/api/health')).status, 200);
        order.push(`health ${read}`);
      }
      const answer = await imported;
      assert.equal(answer.status, 200, JSON.stringify(answer.body).slice(0, 300));
      assert.deepEqual(
        [answer.body.created, answer.body.confirmed, answer.body.pending],
        [10_000, 5_000, 5_000],
      );
    } finally {
      service.import = original;
    }
    assert.deepEqual(order, ['health 1', 'health 2', 'health 3', 'import worked']);
  });

  it('updates tags, attributes, language and zone but never the status; deletes as erasure', async () => {
    const { api, admin } = business;
    const made = await addSubscriber(api, admin, '0655555555');
    const changes = {
      tags: ['a', 'b'],
      attributes: { first_name: 'Léa' },
      language: 'de',
      time_zone: 'Europe/Berlin',
    };
    const withStatus = await api.call('PATCH', `/api/v1/sms/subscribers/${made.id}`, {
      token: admin,
      body: { ...changes, status: 'confirmed' },
    });
    assert.equal(withStatus.status, 422, 'the status is no field of an update');
    assert.deepEqual(
      withStatus.body.details.fields.map((problem: { field: string }) => problem.field),
      ['status'],
    );
    const unchanged = await api.get(`/api/v1/sms/subscribers/${made.id}`, { token: admin });
    assert.deepEqual(
      [unchanged.body.subscriber.tags, unchanged.body.subscriber.language],
      [[], made.language],
      'nothing of the refused update was kept',
    );
    const updated = await api.call('PATCH', `/api/v1/sms/subscribers/${made.id}`, {
      token: admin,
      body: changes,
    });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.deepEqual(updated.body.subscriber.tags, ['a', 'b']);
    assert.deepEqual(updated.body.subscriber.attributes, { first_name: 'Léa' });
    assert.equal(updated.body.subscriber.language, 'de');
    assert.equal(updated.body.subscriber.status, 'pending', 'the status is the subscriber’s to change');
    const deleted = await api.call('DELETE', `/api/v1/sms/subscribers/${made.id}`, { token: admin });
    assert.equal(deleted.status, 200);
    const gone = await api.get(`/api/v1/sms/subscribers/${made.id}`, { token: admin });
    assert.equal(gone.status, 404);
    assert.equal(gone.body.error_code, 'SMS_SUBSCRIBER_NOT_FOUND');
    const evidence = await sql`SELECT id FROM sms_consent_evidence WHERE subscriber_id = ${made.id}`.execute(
      server.db,
    );
    assert.equal(evidence.rows.length, 0, 'erased with its evidence');
  });

  it("refuses every account that is not the business's staff with 403", async () => {
    const { api, tenant } = business;
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/api/v1/sms/subscribers'],
      ['GET', '/api/v1/sms/subscribers/1'],
      ['POST', '/api/v1/sms/subscribers', { phone: '0612345678', source: 'api' }],
      ['PATCH', '/api/v1/sms/subscribers/1', { tags: [] }],
      ['DELETE', '/api/v1/sms/subscribers/1'],
      ['POST', '/api/v1/sms/subscribers/import', { rows: [{ phone: '0612345678' }] }],
    ];
    for (const kind of ACCOUNT_KINDS.filter((k) => k !== 'client_admin' && k !== 'employee')) {
      const token = await login(api, tenant.emails[kind]);
      for (const [method, path, body] of calls) {
        const answer = await api.call(method, path, { token, ...(body ? { body } : {}) });
        assert.equal(answer.status, 403, `${kind} ${method} ${path}: ${JSON.stringify(answer.body)}`);
      }
    }
    const employee = await login(api, tenant.emails.employee);
    assert.equal((await api.get('/api/v1/sms/subscribers', { token: employee })).status, 200);
    const write = await api.post(
      '/api/v1/sms/subscribers',
      { phone: '0612345678', source: 'api' },
      { token: employee },
    );
    assert.equal(write.status, 403, 'staff read, admins write');
  });
});
