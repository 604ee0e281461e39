import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { codegen } from '@graphql-codegen/core';
import * as typescriptPlugin from '@graphql-codegen/typescript';
import * as operationsPlugin from '@graphql-codegen/typescript-operations';
import { parse } from 'graphql';
import openapiTS from 'openapi-typescript';
import { createTenant, PASSWORD, type Tenant } from './support/fixtures.ts';
import { startTestServer, type TestServer } from './support/server.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const EXAMPLE = path.join(ROOT, 'examples', 'typed-client');

/** Type-checks the program in `dir` as its tsconfig.json says (strict): the exit code and what tsc printed. */
function typeCheck(dir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const child = spawn(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: dir });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ code, output }));
  });
}

// What an integration developer does first (docs/integration.md): generate typed clients from the
// committed contracts, write a program against them, let the compiler check it, and run it.
describe('clients generated from the committed openapi.json and schema.graphql', () => {
  let server: TestServer;
  let tenant: Tenant;
  let dir: string;
  before(async () => {
    server = await startTestServer();
    tenant = await createTenant(server.db, server.app.services, 'typed');
    dir = await mkdtemp(path.join(tmpdir(), 'tms-typed-client-'));
    await cp(EXAMPLE, dir, { recursive: true, filter: (from) => !/(api|graphql)\.ts$/.test(from) });
    await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    await writeFile(
      path.join(dir, 'api.ts'),
      await openapiTS(pathToFileURL(path.join(ROOT, 'openapi.json'))),
    );
    const schema = parse(await readFile(path.join(ROOT, 'schema.graphql'), 'utf8'));
    const operations = parse(await readFile(path.join(dir, 'operations.graphql'), 'utf8'));
    const types = await codegen({
      filename: 'graphql.ts',
      schema,
      documents: [{ document: operations, location: 'operations.graphql' }],
      config: {},
      plugins: [{ typescript: {} }, { typescriptOperations: {} }],
      pluginMap: { typescript: typescriptPlugin, typescriptOperations: operationsPlugin },
    });
    await writeFile(path.join(dir, 'graphql.ts'), types);
  });
  after(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('type-checks a program written against them with tsc --strict', async () => {
    const { code, output } = await typeCheck(dir);
    assert.equal(code, 0, output);
  });

  it('catches a program that misreads them', async () => {
    const client = await readFile(path.join(dir, 'client.ts'), 'utf8');
    // An answer field the contract does not have, and a query parameter of the wrong type.
    const wrong = client
      .replace('ordersBefore: listed.data.total,', 'ordersBefore: listed.data.count,')
      .replace(
        'params: { query: { per_page: 5 } }, headers });\n  if (!listed',
        "params: { query: { per_page: 'five' } }, headers });\n  if (!listed",
      );
    assert.notEqual(wrong, client);
    await writeFile(path.join(dir, 'wrong.ts'), wrong);
    try {
      const { code, output } = await typeCheck(dir);
      assert.notEqual(code, 0);
      assert.match(output, /wrong\.ts.*'count'/);
      assert.match(output, /wrong\.ts.*'string' is not assignable to type 'number'/);
    } finally {
      await rm(path.join(dir, 'wrong.ts'));
    }
  });

  it('signs in, lists and creates orders (once as a dry run), reads a timeline and meets a refusal', async () => {
    // Typed by the program itself, which the compiler checked above; read here as what it returns.
    const { walk } = await import(pathToFileURL(path.join(dir, 'client.ts')).href);
    const walked = await walk(server.baseUrl, tenant.emails.client_admin, PASSWORD);
    assert.equal(walked.ordersBefore, 0);
    assert.equal(walked.dryRun, true);
    assert.equal(walked.ordersAfter, 1, 'the dry run created nothing; the order did');
    assert.ok(walked.created.id > 0);
    assert.ok(walked.timelineCodes.length > 0, 'a new parcel has its first event');
    assert.deepEqual(walked.refusal, { status: 404, code: 'ORDER_NOT_FOUND' });
    assert.equal(walked.graphqlTotal, 1);
    // The named types carried the answers: one new order, over REST and GraphQL alike.
    assert.deepEqual(walked.statuses, { rest: ['NEW_ORDER'], graphql: ['NEW_ORDER'] });
  });
});
