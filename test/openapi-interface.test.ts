import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { Spectral } from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';
import { INTERFACE_FAMILIES, SERVICE_FAMILIES, TAG_DESCRIPTIONS } from '../src/doors/openapi/tags.ts';
import { OPT_IN_FAMILIES } from '../src/modules/accounts/index.ts';
import { createTenant, login } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { responseOf } from './support/openapi-schema.ts';
import { startTestServer, type TestServer } from './support/server.ts';

interface DocumentedOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  responses: Record<
    string,
    {
      description: string;
      content?: Record<string, { schema: unknown; examples?: Record<string, { value: unknown }> }>;
    }
  >;
}

const CONTACT_URL = 'https://support.example/tms';

/** The interface's families this service builds today (Skills arrives with its own operations). */
const BUILT_INTERFACE_FAMILIES = [
  'Broker Order Assignments',
  'User',
  'Client',
  'Driver',
  'DriverInfo',
  'Shipping',
  'LabelService',
  'AddressBook',
  'ReturnReasons',
  'POI',
  'Dataset',
  'Alliance',
  'Tracking',
  'OTEP',
  'Customer',
  'Warehouse Transfer',
  'Warehouse Mobile',
  'Webhooks',
  'Platform Apps',
  'Dispatch',
  'InstantRider',
  'Order Chat',
  'Documents',
];

/** Every problem Spectral's `oas` ruleset finds in a document, of any severity, as one line each. */
async function spectralProblems(source: string): Promise<string[]> {
  const spectral = new Spectral();
  // `spectral:oas` as a `.spectral.yaml` that extends it gets it: its recommended rules, at their severities.
  spectral.setRuleset({ extends: [[oas as never, 'recommended']] });
  const results = await spectral.run(source);
  return results.map(
    (result) => `${result.severity} ${result.code}: ${result.message} at ${result.path.join('.')}`,
  );
}

describe('the OpenAPI document in the interface’s own words', () => {
  let server: TestServer;
  let api: Client;
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON document
  let document: any;
  let operations: DocumentedOperation[];

  before(async () => {
    server = await startTestServer({ apiContactUrl: CONTACT_URL });
    api = client(server.baseUrl);
    const answer = await api.get('/api/openapi.json');
    assert.equal(answer.status, 200);
    document = answer.body;
    operations = Object.values<Record<string, DocumentedOperation>>(document.paths).flatMap((methods) =>
      Object.values(methods),
    );
  });
  after(() => server.close());

  it("tags operations with the interface's family names, and the service's own families with none", () => {
    const tags: string[] = document.tags.map((tag: { name: string }) => tag.name);
    const known = new Set<string>([...INTERFACE_FAMILIES, ...SERVICE_FAMILIES]);
    assert.deepEqual(
      tags.filter((tag) => !known.has(tag)),
      [],
      'a tag that is neither a family of the interface nor one of the service’s own',
    );
    for (const family of BUILT_INTERFACE_FAMILIES)
      assert.ok(tags.includes(family), `no operation of ${family}`);
    for (const family of SERVICE_FAMILIES) assert.ok(tags.includes(family), `${family} is listed but unused`);
    // The document's tag list is the set of its operations' tags, each described.
    assert.deepEqual(
      [...new Set(operations.flatMap((operation) => operation.tags))].sort(),
      [...tags].sort(),
    );
    for (const tag of document.tags) assert.ok(tag.description, `tag ${tag.name} has no description`);
    assert.ok(TAG_DESCRIPTIONS.Skills, 'the Skills family is described for its operations');
    const byName = (name: string) => operations.find((operation) => operation.operationId === name)!.tags;
    assert.deepEqual(byName('list_return_reasons'), ['ReturnReasons']);
    assert.deepEqual(byName('list_points_of_interest'), ['POI']);
    assert.deepEqual(byName('list_datasets'), ['Dataset']);
    assert.deepEqual(byName('otep_ingest'), ['OTEP']);
    assert.deepEqual(byName('set_driver_profile'), ['DriverInfo']);
    assert.deepEqual(byName('create_order'), ['Client']);
    assert.deepEqual(byName('get_customer_settings'), ['Customer']);
  });

  it('names every family in the integration guide, and the search of endpoints by tag knows them', async () => {
    const guide = await readFile(new URL('../docs/integration.md', import.meta.url), 'utf8');
    const section = guide.slice(guide.indexOf('## Endpoint families'), guide.indexOf('## Authentication'));
    const words = section.replace(/\s+/g, ' ');
    for (const tag of document.tags)
      assert.ok(words.includes(tag.name), `docs/integration.md omits ${tag.name}`);
    for (const family of SERVICE_FAMILIES) assert.ok(section.includes(`**${family}**`));
    const found = await api.get(`/api/v1/developer/endpoints?tag=${encodeURIComponent('Order Chat')}`);
    assert.equal(found.status, 200);
    assert.equal(found.body.endpoints.length, 8);
    assert.ok(found.body.endpoints.every((endpoint: { tag: string }) => endpoint.tag === 'Order Chat'));
  });

  it('describes every operation beyond its summary', () => {
    assert.ok(operations.length > 150);
    const bare = operations.filter(
      (operation) =>
        !operation.description?.trim() || operation.description.trim() === operation.summary.trim(),
    );
    assert.deepEqual(
      bare.map((operation) => operation.operationId),
      [],
    );
  });

  it('names a contact: the configured one, else the reference page', async () => {
    assert.deepEqual(document.info.contact, { name: 'Transport Management Service', url: CONTACT_URL });
    // The committed file's server is relative (`/api`); a contact URL must be absolute, so it names none.
    const committed = JSON.parse(await readFile(new URL('../openapi.json', import.meta.url), 'utf8'));
    assert.equal(committed.servers[0].url, '/api');
    assert.deepEqual(committed.info.contact, { name: 'Transport Management Service' });
  });

  it("documents the opt-in families' 409 as the executor answers it, feature_enabled: false", async () => {
    // A business with every opt-in family off, as a business starts.
    const tenant = await createTenant(server.db, server.app.services, 'familiesoff');
    const token = await login(api, tenant.emails.client_admin);
    const gated = server.app.catalog
      .list()
      .filter(
        (operation) =>
          operation.feature && (OPT_IN_FAMILIES as readonly string[]).includes(operation.feature),
      );
    assert.ok(gated.length >= 8);
    for (const operation of gated) {
      const { method, path } = operation.rest!;
      const documented = document.paths[path.replace(/:(\w+)/g, '{$1}')][method.toLowerCase()];
      const conflict = responseOf(document, documented.responses['409']);
      assert.ok(conflict, `${operation.name} does not document its 409`);
      // SMS marketing answers a code of its own, without feature_enabled (the interface's errors table).
      const sms = operation.feature === 'sms_marketing';
      const code = sms ? 'SMS_MARKETING_DISABLED' : 'FEATURE_DISABLED';
      assert.match(conflict.description, new RegExp(code));
      if (!sms) assert.match(conflict.description, /feature_enabled: false/);
      assert.doesNotMatch(
        responseOf(document, documented.responses['403'])?.description ?? '',
        /MODULE_DISABLED/,
      );
      const example = conflict.content['application/json'].examples[code].value;
      // The switch is read before the input: any path value and body meet it.
      const answer = await api.call(method, `/api${path.replace(/:(\w+)/g, '1')}`, {
        token,
        ...(method === 'GET' ? {} : { body: {} }),
      });
      assert.equal(answer.status, 409, `${operation.name}: ${JSON.stringify(answer.body)}`);
      assert.deepEqual(
        answer.body,
        example,
        `${operation.name} answers otherwise than its documented example`,
      );
      assert.equal(answer.body.feature_enabled, sms ? undefined : false);
    }
    const schema = document.components.schemas.FeatureDisabled;
    assert.deepEqual(schema.properties.feature_enabled, { const: false });
    assert.ok(schema.required.includes('feature_enabled'));
  });

  it("passes Spectral's oas ruleset with no problem of any severity", async () => {
    const committed = await readFile(new URL('../openapi.json', import.meta.url), 'utf8');
    assert.deepEqual(await spectralProblems(committed), [], 'openapi.json');
    assert.deepEqual(await spectralProblems(JSON.stringify(document)), [], 'the served document');
  });
});
