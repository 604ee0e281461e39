import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { z } from 'zod';
import { declaredRefusals } from '../src/doors/refusals.ts';
import { defineOperation } from '../src/platform/catalog/operation.ts';
import { Catalog } from '../src/platform/catalog/registry.ts';
import { checkAnswers } from './support/answer-check.ts';

// Every test server holds its REST answers to the codes their operations declare (the OpenAPI
// document's enum per status): the whole suite is the check. This is the check checked.
describe('the test server holds refusals to the codes their operation declares', () => {
  const probe = defineOperation({
    name: 'probe_order',
    summary: 'x',
    tag: 'Orders',
    kind: 'query',
    risk: 'low',
    access: { kinds: ['client_admin'], scopes: ['orders:read'], business: 'own' },
    rest: { method: 'GET', path: '/v1/probe/:order_id' },
    errors: ['ORDER_NOT_FOUND'],
    input: z.object({ order_id: z.coerce.number().int() }),
    output: z.object({}),
    handler: async () => ({}),
  });

  async function answer(status: number, code: string) {
    const http = Fastify();
    checkAnswers(http, new Catalog().register([probe]));
    http.get('/api/v1/probe/:order_id', async (_request, reply) =>
      reply.code(status).send({ result: false, error_code: code, message: 'refused' }),
    );
    const reply = await http.inject({ method: 'GET', url: '/api/v1/probe/7' });
    await http.close();
    return { status: reply.statusCode, body: reply.json() };
  }

  it('lets a declared refusal through as it is', async () => {
    assert.deepEqual(await answer(404, 'ORDER_NOT_FOUND'), {
      status: 404,
      body: { result: false, error_code: 'ORDER_NOT_FOUND', message: 'refused' },
    });
    // Those any operation of its kind may give are declared too.
    assert.equal((await answer(401, 'UNAUTHENTICATED')).status, 401);
    assert.equal((await answer(429, 'RATE_LIMITED')).status, 429);
  });

  it('turns an undeclared code, or a declared code at another status, into a 500 that says so', async () => {
    const undeclared = await answer(404, 'ROUTE_NOT_FOUND');
    assert.equal(undeclared.status, 500);
    assert.match(
      undeclared.body.message,
      /probe_order answered 404 ROUTE_NOT_FOUND, which it does not declare/,
    );
    const elsewhere = await answer(409, 'ORDER_NOT_FOUND');
    assert.equal(elsewhere.status, 500);
    assert.match(elsewhere.body.message, /probe_order answered 409 ORDER_NOT_FOUND/);
  });

  it('declares each code at the one status it answers with', () => {
    const refusals = declaredRefusals(probe);
    assert.deepEqual(refusals.get(404), ['ORDER_NOT_FOUND']);
    assert.ok(refusals.get(401)?.includes('UNAUTHENTICATED'));
    assert.ok(refusals.get(403)?.includes('INSUFFICIENT_SCOPE'));
    // A read takes no body: no refusal of one.
    assert.ok(![...refusals.values()].flat().includes('INVALID_JSON'));
  });
});
