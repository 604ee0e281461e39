import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { epcisMessageTables } from '../src/modules/tracking/projections/epcis-reader-messages.ts';
import { FIELD_MESSAGES } from '../src/platform/i18n/field-messages.ts';
import { LANGUAGES } from '../src/platform/i18n/index.ts';
import { createTenant, login, type Tenant } from './support/fixtures.ts';
import { type Answer, type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

/** Field -> message of a VALIDATION_FAILED answer. */
function fieldMessages(answer: Answer): Record<string, string> {
  assert.equal(answer.status, 422, JSON.stringify(answer.body));
  assert.equal(answer.body.error_code, 'VALIDATION_FAILED');
  return Object.fromEntries(
    answer.body.details.fields.map((field: { field: string; message: string }) => [
      field.field,
      field.message,
    ]),
  );
}

describe("the service's own validation messages, in the caller's language", () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;

  const inLanguage = (lang: string) => ({ 'accept-language': lang });

  before(async () => {
    server = await startTestServer();
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'words');
    admin = await login(api, tenant.emails.client_admin);
  });
  after(() => server.close());

  it('words the shapes of an order in French and German: country, currency, local time, time window', async () => {
    // One order sent as it is: the refusals name its fields as sent, not orders.0.*.
    const order = {
      dropoff: { line1: '1 rue de la Paix', country: 'France' },
      currency: 'euro',
      shipping_price: '12.50',
      time_window: { start: '9h', end: '10:00' },
    };
    const fr = fieldMessages(
      await api.post('/api/v1/client/orderCreate', order, { token: admin, headers: inLanguage('fr') }),
    );
    assert.equal(fr['dropoff.country'], 'Un code pays ISO 3166-1 alpha-2 est attendu, par exemple FR.');
    assert.equal(fr.currency, 'Un code devise ISO 4217 est attendu, par exemple EUR.');
    assert.equal(fr['time_window.start'], 'Une heure locale HH:MM est attendue, par exemple 08:30.');
    const de = fieldMessages(
      await api.post('/api/v1/client/orderCreate', order, { token: admin, headers: inLanguage('de') }),
    );
    assert.equal(de['dropoff.country'], 'Erwartet wird ein Ländercode nach ISO 3166-1 Alpha-2, etwa DE.');
    assert.equal(de.currency, 'Erwartet wird ein Währungscode nach ISO 4217, etwa EUR.');
    assert.equal(de['time_window.start'], 'Erwartet wird eine Ortszeit HH:MM, etwa 08:30.');

    const backwards = fieldMessages(
      await api.post(
        '/api/v1/client/orderCreate',
        { dropoff: { line1: 'x' }, time_window: { start: '10:00', end: '09:00' } },
        { token: admin, headers: inLanguage('de') },
      ),
    );
    assert.deepEqual(backwards, { 'time_window.end': 'Das Ende muss nach dem Beginn liegen.' });
  });

  it("words a warehouse's code, time zone, country and opening hours in the caller's language", async () => {
    const warehouse = {
      code: '-bad code',
      name: 'Entrepôt',
      line1: '1 rue',
      country: 'fr',
      time_zone: 'Europe/Nowhere',
      opening_hours: { mon: [{ from: '7h', to: '19:00' }] },
    };
    const fr = fieldMessages(
      await api.post('/api/v1/client/warehouses', warehouse, { token: admin, headers: inLanguage('fr') }),
    );
    assert.deepEqual(fr, {
      code: 'Jusqu’à 32 lettres, chiffres, ., _ et - sont attendus, en commençant par une lettre ou un chiffre.',
      country: 'Un code pays ISO 3166-1 alpha-2 est attendu, par exemple FR.',
      time_zone: 'Un fuseau horaire IANA est attendu, par exemple Europe/Paris.',
      'opening_hours.mon.0.from': 'Une heure locale HH:MM est attendue, par exemple 08:30.',
    });
  });

  it('words rules across fields with the fields they name', async () => {
    const find = fieldMessages(
      await api.get('/api/v1/client/orders/find', { token: admin, headers: inLanguage('de') }),
    );
    assert.deepEqual(find, { order_ref: 'Geben Sie genau eines an von: order_ref, tracking_number.' });
    const events = fieldMessages(
      await api.post('/api/v1/tracking/operationevents', {}, { token: admin, headers: inLanguage('fr') }),
    );
    assert.deepEqual(events, { order_ids: 'Indiquez au moins l’un de : order_ids, order_refs.' });
  });

  it('words an app version that is not a semantic version', async () => {
    const answer = await api.get('/api/v1/apps/courier/clients/nowhere/bootstrap?app_version=latest', {
      headers: inLanguage('fr'),
    });
    assert.deepEqual(fieldMessages(answer), {
      app_version: 'Une version sémantique est attendue, par exemple 2.4.1.',
    });
    const de = await api.get('/api/v1/apps/courier/clients/nowhere/bootstrap?app_version=2.x', {
      headers: inLanguage('de'),
    });
    assert.deepEqual(fieldMessages(de), {
      app_version: 'Erwartet wird eine semantische Version, etwa 2.4.1.',
    });
  });

  it("words what the EPCIS reader cannot read, in the provider's language", async () => {
    const provider = await api.post('/api/v1/client/otep/providers', { name: 'Words Co' }, { token: admin });
    assert.equal(provider.status, 200, JSON.stringify(provider.body));
    const document = {
      type: 'EPCISDocument',
      epcisBody: {
        eventList: [
          { type: 'AggregationEvent' },
          {
            type: 'ObjectEvent',
            eventTime: 'yesterday',
            eventTimeZoneOffset: '+01:00',
            epcList: ['urn:epc:id:sscc:0614141.1234567890'],
            bizStep: 'receiving',
          },
        ],
      },
    };
    const refused = (lang: string) =>
      api.post('/api/v1/otep/ingest/epcis', document, {
        headers: { 'x-otep-provider-key': provider.body.provider.key, ...inLanguage(lang) },
      });
    const messages = async (lang: string) => {
      const answer = await refused(lang);
      assert.equal(answer.status, 422, JSON.stringify(answer.body));
      assert.equal(answer.body.error_code, 'OTEP_INVALID');
      return answer.body.details.errors.map((error: { path: string; code: string; message: string }) => [
        error.path,
        error.code,
        error.message,
      ]);
    };
    assert.deepEqual(await messages('fr'), [
      [
        'epcisBody.eventList[0].type',
        'epcis_unreadable',
        'Seuls les ObjectEvents peuvent être lus, pas "AggregationEvent".',
      ],
      [
        'epcisBody.eventList[1].eventTime',
        'epcis_unreadable',
        'Une date-heure ISO 8601 avec décalage est attendue.',
      ],
    ]);
    assert.deepEqual(await messages('de'), [
      [
        'epcisBody.eventList[0].type',
        'epcis_unreadable',
        'Nur ObjectEvents können gelesen werden, nicht "AggregationEvent".',
      ],
      [
        'epcisBody.eventList[1].eventTime',
        'epcis_unreadable',
        'Erwartet wird ein ISO-8601-Zeitpunkt mit Versatz.',
      ],
    ]);
  });

  it('has every message in every language, translated, with the same placeholders', () => {
    const tables = { field: FIELD_MESSAGES, epcis: epcisMessageTables() } as Record<
      string,
      Readonly<Record<string, Record<string, string>>>
    >;
    for (const [name, table] of Object.entries(tables)) {
      const keys = Object.keys(table.en!);
      for (const lang of LANGUAGES) {
        assert.deepEqual(Object.keys(table[lang]!).sort(), [...keys].sort(), `${name} ${lang} keys`);
        for (const key of keys) {
          const message = table[lang]![key]!;
          assert.deepEqual(placeholders(message), placeholders(table.en![key]!), `${name} ${lang} ${key}`);
          if (lang !== 'en')
            assert.notEqual(message, table.en![key], `${name} ${lang} ${key} is not translated`);
        }
      }
    }
  });
});
