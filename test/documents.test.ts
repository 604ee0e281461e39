import assert from 'node:assert/strict';
import { createHash, verify } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { canonicalStatement, DocumentsService } from '../src/modules/documents/service.ts';
import { createTenant, type Tenant } from './support/fixtures.ts';
import { type Answer, type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * A small valid PDF written by hand (one page, one line of text, a correct xref table), so the
 * test needs no PDF library: a label with a tracking number on it.
 */
function labelPdf(trackingNumber: string): Buffer {
  const text = `BT /F1 14 Tf 24 400 Td (Tracking number ${trackingNumber}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 288 432] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const offset = pdf.length;
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('documents: fingerprints of issued PDFs, verification and the public key', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let dataDir: string;
  let label: Buffer;
  let issued: { id: number; sha256: string; issuedAt: Date };

  const verifyPdf = async (
    bytes: Buffer | string,
    contentType = 'application/pdf',
    lang = 'en',
  ): Promise<Answer> => {
    const response = await fetch(`${server.baseUrl}/api/v1/documents/verify`, {
      method: 'POST',
      headers: { 'content-type': contentType, 'accept-language': lang },
      body: bytes,
    });
    return { status: response.status, headers: response.headers, body: await response.json() };
  };

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'tms-documents-'));
    server = await startTestServer({ dataDir, documentSigningKey: undefined });
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'docs');
    label = labelPdf('TMS0000000042');
    issued = await server.app.services.documents.issue(server.db, {
      businessId: tenant.businessId,
      kind: 'label',
      reference: 'TMS0000000042',
      bytes: label,
    });
  });
  after(async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('records the SHA-256 and the issue time of the clock', () => {
    assert.equal(issued.sha256, sha256Of(label));
    assert.equal(issued.issuedAt.toISOString(), '2026-11-02T09:30:00.000Z');
  });

  it('verifies an issued label: issued, intact, kind, date, reference, signature valid', async () => {
    const answer = await verifyPdf(label);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(
      { ...answer.body, signature: undefined, key_id: undefined },
      {
        result: true,
        issued: true,
        intact: true,
        sha256: sha256Of(label),
        kind: 'label',
        issued_at: '2026-11-02T09:30:00.000Z',
        reference: 'TMS0000000042',
        signature_valid: true,
        signature: undefined,
        key_id: undefined,
      },
    );
    assert.match(answer.body.key_id, /^[0-9a-f]{16}$/);
    assert.equal(Buffer.from(answer.body.signature, 'base64').length, 64);
    // Nothing about the business that issued it.
    assert.ok(!JSON.stringify(answer.body).includes(String(tenant.code)));
  });

  it('does not know a PDF with one byte changed', async () => {
    const changed = Buffer.from(label);
    const at = Math.floor(changed.length / 2);
    changed[at] = changed[at]! ^ 0x01;
    const answer = await verifyPdf(changed);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { result: true, issued: false, intact: false, sha256: sha256Of(changed) });
  });

  it('does not know a foreign PDF', async () => {
    const foreign = labelPdf('FOREIGN-1');
    assert.notEqual(sha256Of(foreign), sha256Of(label));
    const answer = await verifyPdf(foreign);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.issued, false);
    assert.equal(answer.body.intact, false);
    assert.equal(answer.body.kind, undefined);
  });

  it('takes the SHA-256 as JSON too, in either case', async () => {
    const known = await api.post('/api/v1/documents/verify', { sha256: issued.sha256.toUpperCase() });
    assert.equal(known.status, 200, JSON.stringify(known.body));
    assert.equal(known.body.issued, true);
    assert.equal(known.body.sha256, issued.sha256);
    const unknown = await api.post('/api/v1/documents/verify', { sha256: '0'.repeat(64) });
    assert.equal(unknown.body.issued, false);
    const bad = await api.post('/api/v1/documents/verify', { sha256: 'abc' });
    assert.equal(bad.status, 422);
    assert.equal(bad.body.error_code, 'VALIDATION_FAILED');
    const empty = await api.post('/api/v1/documents/verify', {});
    assert.equal(empty.status, 422);
    assert.deepEqual(
      empty.body.details.fields.map((field: { field: string }) => field.field),
      ['sha256'],
    );
  });

  it('refuses another content type with 415 in the error shape, in the caller language', async () => {
    const answer = await verifyPdf(label.toString('latin1'), 'text/plain', 'fr');
    assert.equal(answer.status, 415);
    assert.equal(answer.body.result, false);
    assert.equal(answer.body.error_code, 'UNSUPPORTED_DOCUMENT_TYPE');
    assert.match(answer.body.message, /^Envoyez le PDF/);
    assert.equal(answer.headers.get('content-language'), 'fr');
  });

  it('refuses a PDF over 10 MiB with 413, naming the limit', async () => {
    const answer = await verifyPdf(Buffer.alloc(10 * 1024 * 1024 + 1, 0x20));
    assert.equal(answer.status, 413);
    assert.equal(answer.body.error_code, 'PAYLOAD_TOO_LARGE');
    assert.deepEqual(answer.body.details, { limit_bytes: 10 * 1024 * 1024 });
  });

  it('takes a PDF bigger than the JSON body limit', async () => {
    const big = Buffer.concat([label, Buffer.alloc(2 * 1024 * 1024, 0x20)]);
    const answer = await verifyPdf(big);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.issued, false);
  });

  it('publishes the public key, which verifies the stored signature offline', async () => {
    const answer = await api.get('/api/v1/documents/public-key');
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.algorithm, 'Ed25519');
    const stored = await server.db
      .selectFrom('documents')
      .select(['sha256', 'kind', 'issued_at', 'reference', 'key_id', 'signature'])
      .where('id', '=', issued.id)
      .executeTakeFirstOrThrow();
    assert.equal(stored.key_id, answer.body.key_id);
    const statement = `tms-document:v1:${stored.sha256}:label:2026-11-02T09:30:00.000Z:TMS0000000042`;
    assert.ok(verify(null, Buffer.from(statement), answer.body.public_key_pem, stored.signature));
    assert.ok(!verify(null, Buffer.from(`${statement}x`), answer.body.public_key_pem, stored.signature));
    assert.deepEqual(answer.body.keys, [
      {
        key_id: stored.key_id,
        public_key_pem: answer.body.public_key_pem,
        first_used_at: '2026-11-02T09:30:00.000Z',
      },
    ]);
  });

  it('records the same label issued again once', async () => {
    server.clock.advance(60_000);
    const again = await server.app.services.documents.issue(server.db, {
      businessId: tenant.businessId,
      kind: 'label',
      reference: 'TMS0000000042',
      bytes: label,
    });
    assert.deepEqual(again, issued);
  });

  it('keeps verifying documents signed by an earlier key after the key changes', async () => {
    const rotated = new DocumentsService(server.clock, {
      signingKey: Buffer.alloc(32, 9).toString('base64'),
      dataDir,
    });
    const invoice = labelPdf('INV-7');
    await rotated.issue(server.db, {
      businessId: tenant.businessId,
      kind: 'invoice',
      reference: 'INV-7',
      bytes: invoice,
    });
    const before = await rotated.verify(server.db, { pdf: label });
    const after = await rotated.verify(server.db, { pdf: invoice });
    assert.equal(before.signatureValid, true);
    assert.equal(after.signatureValid, true);
    assert.notEqual(before.keyId, after.keyId);
    assert.equal((await rotated.publicKeys(server.db)).keys.length, 2);
  });

  it('reports a record changed in the database as signature_valid false', async () => {
    const forged = labelPdf('TMS-FORGED');
    const record = await server.app.services.documents.issue(server.db, {
      businessId: tenant.businessId,
      kind: 'label',
      reference: 'TMS-FORGED',
      bytes: forged,
    });
    await server.db
      .updateTable('documents')
      .set({ reference: 'TMS-OTHER' })
      .where('id', '=', record.id)
      .execute();
    const answer = await verifyPdf(forged);
    assert.equal(answer.body.issued, true);
    assert.equal(answer.body.reference, 'TMS-OTHER');
    assert.equal(answer.body.signature_valid, false);
    // The signature still covers what was issued.
    const { public_key_pem: publicKey } = (await api.get('/api/v1/documents/public-key')).body;
    const { signature } = await server.db
      .selectFrom('documents')
      .select('signature')
      .where('id', '=', record.id)
      .executeTakeFirstOrThrow();
    const original = canonicalStatement({ ...record, kind: 'label', reference: 'TMS-FORGED' });
    assert.ok(verify(null, Buffer.from(original), publicKey, signature));
  });
});
