import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ClientError, GraphQLClient, gql } from 'graphql-request';
import sharp from 'sharp';
import { MAX_LABEL_BYTES } from '../src/modules/ocr/reading/index.ts';
import { errorMessage } from '../src/platform/i18n/index.ts';
import { createTenant, login } from './support/fixtures.ts';
import { client } from './support/http.ts';
import { ownLabelPdf, type ParseAnswer, parseLabel, pdfToPng } from './support/ocr.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/** A refusal in the service's error shape: result false, the code, a message. */
function refused(answer: ParseAnswer, status: number, code: string) {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.equal(answer.body.result, false);
  assert.equal(answer.body.error_code, code);
  assert.equal(typeof answer.body.message, 'string');
  assert.ok(answer.body.message.length > 0);
}

describe('label reading refusals', () => {
  let server: TestServer;
  let admin: string;
  let png: Buffer;

  before(async () => {
    // GraphQL bodies may carry an over-limit image in base64, so the reader's own limit answers.
    server = await startTestServer({
      labelReader: { threads: 1, queueLimit: 4 },
      bodyLimitBytes: 3 * MAX_LABEL_BYTES,
    });
    const api = client(server.baseUrl);
    const tenant = await createTenant(server.db, server.app.services, 'ocr-refusals');
    admin = await login(api, tenant.emails.client_admin);
    png = await sharp({
      create: { width: 40, height: 40, channels: 3, background: { r: 255, g: 255, b: 255 } },
    })
      .png()
      .toBuffer();
  });
  after(() => server.close());

  it('refuses a body over the limit with 413, before reading it', async () => {
    const answer = await parseLabel(
      server.baseUrl,
      admin,
      Buffer.alloc(MAX_LABEL_BYTES + 1, 0x89),
      'image/png',
    );
    refused(answer, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('refuses base64 over the limit the same way', async () => {
    const graphql = new GraphQLClient(`${server.baseUrl}/api/graphql`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    const error = await graphql
      .request(
        gql`
          query Parse($image: String!) {
            parseLabel(image_base64: $image, content_type: "image/png") {
              result
            }
          }
        `,
        { image: Buffer.alloc(MAX_LABEL_BYTES + 3, 0x89).toString('base64') },
      )
      .then(
        () => assert.fail('an over-limit image was read'),
        (caught: unknown) => caught,
      );
    assert.ok(error instanceof ClientError);
    assert.equal(error.response.errors?.[0]?.extensions?.error_code, 'PAYLOAD_TOO_LARGE');
  });

  it('refuses an image too large to read with 422 LABEL_IMAGE_TOO_LARGE', async () => {
    const wide = await sharp({
      create: { width: 9000, height: 100, channels: 3, background: { r: 255, g: 255, b: 255 } },
    })
      .png()
      .toBuffer();
    refused(await parseLabel(server.baseUrl, admin, wide, 'image/png'), 422, 'LABEL_IMAGE_TOO_LARGE');
  });

  it('refuses other media types with 415 UNSUPPORTED_LABEL_TYPE', async () => {
    refused(await parseLabel(server.baseUrl, admin, 'a label', 'text/plain'), 415, 'UNSUPPORTED_LABEL_TYPE');
    refused(await parseLabel(server.baseUrl, admin, png, 'image/gif'), 415, 'UNSUPPORTED_LABEL_TYPE');
  });

  it('refuses bytes that are no image with 422 LABEL_NOT_READABLE, in the caller language', async () => {
    const garbage = Buffer.from('this is not a PNG at all, only text dressed up as one');
    const english = await parseLabel(server.baseUrl, admin, garbage, 'image/png');
    refused(english, 422, 'LABEL_NOT_READABLE');
    const french = await parseLabel(server.baseUrl, admin, garbage, 'image/png', 'fr');
    refused(french, 422, 'LABEL_NOT_READABLE');
    assert.equal(french.body.message, errorMessage('LABEL_NOT_READABLE', 'fr', { type: 'image/png' }));
    assert.notEqual(french.body.message, english.body.message);
  });

  it('answers 429 LABEL_READER_BUSY with Retry-After when the reader queue is full', async () => {
    const busy = await startTestServer({ labelReader: { threads: 1, queueLimit: 1 } });
    try {
      const api = client(busy.baseUrl);
      const tenant = await createTenant(busy.db, busy.app.services, 'ocr-busy');
      const token = await login(api, tenant.emails.client_admin);
      const label = await pdfToPng(await ownLabelPdf('TMS000000001'));
      // One reading runs, one waits: the others find the queue full.
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => parseLabel(busy.baseUrl, token, label, 'image/png')),
      );
      const statuses = answers.map((answer) => answer.status).sort();
      assert.ok(statuses.includes(200), JSON.stringify(statuses));
      const refusal = answers.find((answer) => answer.status === 429);
      assert.ok(refusal, JSON.stringify(statuses));
      refused(refusal, 429, 'LABEL_READER_BUSY');
      assert.match(refusal.headers.get('retry-after') ?? '', /^\d+$/);
    } finally {
      await busy.close();
    }
  });
});
