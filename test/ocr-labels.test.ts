import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { GraphQLClient, gql } from 'graphql-request';
import { completeTrackingNumber } from '../src/modules/ocr/index.ts';
import { createTenant, login, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { ownLabelPdf, parseLabel, pdfToPng, RECIPIENT, SENDER } from './support/ocr.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/** A UPS number whose check digit holds: what a carrier's label carries. */
const UPS_NUMBER = '1Z999AA10123456784';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are asserted field by field
type Json = any;

describe('label reading: parse a label, match it, draft and create its order', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;
  let driver: string;
  let order: { id: number; trackingNumber: string };
  let ownLabel: Buffer;

  before(async () => {
    server = await startTestServer({ labelReader: { threads: 1, queueLimit: 16 } });
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'ocr');
    admin = await login(api, tenant.emails.client_admin);
    driver = await login(api, tenant.emails.driver);
    const created = await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: 'LABELLED-1', dropoff: { line1: RECIPIENT.line1, postal_code: RECIPIENT.postal_code } },
      { token: admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    order = { id: created.body.order_id, trackingNumber: created.body.tracking_number };
    ownLabel = await ownLabelPdf(order.trackingNumber);
  });
  after(() => server.close());

  const readNumbers = (body: Json): string[] => [
    ...body.reading.fields.tracking_numbers.map((found: Json) => found.value.number),
    ...body.reading.barcodes.map((barcode: Json) => barcode.text),
  ];

  it("reads the service's own label over REST and finds the order whose package it names", async () => {
    const answer = await parseLabel(server.baseUrl, admin, ownLabel, 'application/pdf');
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const { reading, matches, order_draft: draft } = answer.body;
    assert.ok(readNumbers(answer.body).includes(order.trackingNumber), JSON.stringify(reading.fields));
    // The service's own number (its QR code links to the service's tracking page): its own carrier code.
    assert.deepEqual(
      reading.fields.tracking_numbers.map((found: Json) => [found.value.number, found.value.carrier]),
      [[order.trackingNumber, 'tms']],
    );
    assert.equal(reading.fields.carrier?.value, 'tms');
    assert.equal(reading.fields.recipient?.value.postal_code, RECIPIENT.postal_code);
    assert.deepEqual(
      matches.filter((match: Json) => match.kind === 'order').map((match: Json) => [match.id, match.via]),
      [[order.id, 'package']],
    );
    assert.equal(matches[0].order_ref, 'LABELLED-1');
    // The draft is create_order's input: delivered to the recipient, picked up from the sender.
    assert.equal(draft.order.dropoff.postal_code, RECIPIENT.postal_code);
    assert.equal(draft.order.pickup.postal_code, SENDER.postal_code);
    assert.equal(draft.order.type, 'P2P');
    assert.deepEqual(draft.missing, []);
  });

  it('shows a driver only the orders on a route of theirs', async () => {
    const answer = await parseLabel(server.baseUrl, driver, ownLabel, 'application/pdf');
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.ok(readNumbers(answer.body).includes(order.trackingNumber));
    // The order is on no route of the driver's.
    assert.deepEqual(answer.body.matches, []);
  });

  it('reads over GraphQL and as the parse_label read tool, from base64', async () => {
    const png = await pdfToPng(ownLabel);
    const graphql = new GraphQLClient(`${server.baseUrl}/api/graphql`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    const answer = await graphql.request<{ parseLabel: Json }>(
      gql`
        query Parse($image: String!, $type: String!) {
          parseLabel(image_base64: $image, content_type: $type) {
            result
            reading { fields { recipient { value { postal_code } } } barcodes { text } }
            matches { kind id tracking_number }
            order_draft { missing }
          }
        }
      `,
      { image: png.toString('base64'), type: 'image/png' },
    );
    assert.equal(answer.parseLabel.reading.fields.recipient.value.postal_code, RECIPIENT.postal_code);
    assert.deepEqual(
      answer.parseLabel.matches.find((match: Json) => match.kind === 'order'),
      { kind: 'order', id: order.id, tracking_number: order.trackingNumber },
    );

    const mcp = new McpClient({ name: 'ocr-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${admin}` } },
      }),
    );
    try {
      const { tools } = await mcp.listTools();
      const tool = tools.find((listed) => listed.name === 'parse_label');
      assert.equal(tool?.annotations?.readOnlyHint, true);
      assert.ok(tool?.inputSchema.properties?.image_base64 && tool.inputSchema.properties.content_type);
      const called = (await mcp.callTool({
        name: 'parse_label',
        arguments: { image_base64: png.toString('base64'), content_type: 'image/png' },
      })) as CallToolResult & { structuredContent: Json };
      assert.equal(called.isError, undefined, JSON.stringify(called.structuredContent));
      assert.equal(
        called.structuredContent.reading.fields.recipient.value.postal_code,
        RECIPIENT.postal_code,
      );
      assert.ok(called.structuredContent.matches.some((match: Json) => match.id === order.id));
    } finally {
      await mcp.close();
    }
  });

  it('creates the order a carrier label drafted, once, and matches the label to it afterwards', async () => {
    const label = await ownLabelPdf(UPS_NUMBER, 'UPS');
    const parsed = await parseLabel(server.baseUrl, admin, label, 'application/pdf');
    assert.equal(parsed.status, 200, JSON.stringify(parsed.body));
    const draft = parsed.body.order_draft;
    assert.ok(draft.tracking_numbers.includes(UPS_NUMBER), JSON.stringify(draft));
    assert.deepEqual(parsed.body.matches, []);
    // The person checks the draft: the parcel is in hand, so only the delivery remains.
    const { pickup: _pickup, ...order } = draft.order;
    const body = {
      order: { ...order, type: 'D', order_ref: 'FROM-LABEL-1' },
      tracking_numbers: draft.tracking_numbers,
      client_id: 'scan-1',
    };
    const created = await api.post('/api/v1/labels/orders', body, { token: admin });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.created, true);
    assert.equal(created.body.order.dropoff.postal_code, RECIPIENT.postal_code);
    assert.equal(created.body.order.order_ref, 'FROM-LABEL-1');
    const again = await api.post('/api/v1/labels/orders', body, { token: admin });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.deepEqual([again.body.created, again.body.order.id], [false, created.body.order.id]);
    const listed = await api.get('/api/v1/client/orders?order_ref=FROM-LABEL-1', { token: admin });
    assert.equal(listed.body.total, 1, JSON.stringify(listed.body));

    const reread = await parseLabel(server.baseUrl, admin, label, 'application/pdf');
    assert.deepEqual(
      reread.body.matches.map((match: Json) => [match.kind, match.id, match.tracking_number, match.via]),
      [['order', created.body.order.id, UPS_NUMBER, 'label']],
    );
  });

  it("drafts from an order's own label without its order_ref, so the draft sent back is created", async () => {
    // The label the service prints for the order: its own number, and its order_ref as `Ref:`.
    const label = await ownLabelPdf(order.trackingNumber, 'Colis Express', { orderRef: 'LABELLED-1' });
    const parsed = await parseLabel(server.baseUrl, admin, label, 'application/pdf');
    assert.equal(parsed.status, 200, JSON.stringify(parsed.body));
    assert.deepEqual(
      parsed.body.reading.fields.references.map((found: Json) => found.value),
      ['LABELLED-1'],
    );
    assert.ok(parsed.body.matches.some((match: Json) => match.order_ref === 'LABELLED-1'));
    const draft = parsed.body.order_draft;
    assert.equal(draft.order.order_ref, undefined, JSON.stringify(draft.order));
    assert.match(draft.order.note, /Label reference: LABELLED-1/);
    const created = await api.post(
      '/api/v1/labels/orders',
      { order: draft.order, tracking_numbers: draft.tracking_numbers },
      { token: admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.notEqual(created.body.order.order_ref, 'LABELLED-1');
    assert.notEqual(created.body.order.id, order.id);
  });

  it('leaves out a reference any order of the business has, unless the reader is a driver', async () => {
    // A carrier's label that matches no order by its number, with a reference already taken.
    const number = completeTrackingNumber('ups_1z', '1Z999AA1098765432');
    const label = await ownLabelPdf(number, 'UPS', { orderRef: 'LABELLED-1' });
    const staff = await parseLabel(server.baseUrl, admin, label, 'application/pdf');
    assert.equal(staff.status, 200, JSON.stringify(staff.body));
    assert.deepEqual(staff.body.matches, []);
    assert.equal(staff.body.order_draft.order.order_ref, undefined);
    const sent = await api.post(
      '/api/v1/labels/orders',
      { order: staff.body.order_draft.order, tracking_numbers: staff.body.order_draft.tracking_numbers },
      { token: admin },
    );
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    // A driver, who sees no order of another route and sends no draft, is not told the reference is taken.
    const byDriver = await parseLabel(server.baseUrl, driver, label, 'application/pdf');
    assert.equal(byDriver.status, 200, JSON.stringify(byDriver.body));
    assert.equal(byDriver.body.order_draft.order.order_ref, 'LABELLED-1');
  });

  it('refuses a draft create_order would refuse, with its own refusal', async () => {
    const refused = await api.post(
      '/api/v1/labels/orders',
      { order: { order_ref: 'LABELLED-1', dropoff: { line1: 'x' } }, tracking_numbers: [] },
      { token: admin },
    );
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.error_code, 'ORDER_REF_TAKEN');
    const missing = await api.post('/api/v1/labels/orders', { order: { type: 'D' } }, { token: admin });
    assert.equal(missing.status, 422, JSON.stringify(missing.body));
    const byDriver = await api.post(
      '/api/v1/labels/orders',
      { order: { dropoff: { line1: 'x' } } },
      { token: driver },
    );
    assert.equal(byDriver.status, 403, JSON.stringify(byDriver.body));
  });

  it('keeps answering while eight labels are being read', async () => {
    let reading = true;
    const parses = Promise.all(
      Array.from({ length: 8 }, () => parseLabel(server.baseUrl, admin, ownLabel, 'application/pdf')),
    ).finally(() => {
      reading = false;
    });
    const health: number[] = [];
    while (reading) {
      health.push((await fetch(`${server.baseUrl}/api/health`)).status);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const answers = await parses;
    assert.deepEqual(
      answers.map((answer) => answer.status),
      Array(8).fill(200),
    );
    assert.ok(health.length >= 20, `${health.length} health reads`);
    assert.ok(
      health.every((status) => status === 200),
      JSON.stringify(health),
    );
  });
});
