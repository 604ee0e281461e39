import { z } from 'zod';
import { defineOperation, type Operation } from '../../platform/catalog/operation.ts';
import { fieldMessage } from '../../platform/i18n/field-messages.ts';
import { type DocumentsService, MAX_DOCUMENT_BYTES } from './service.ts';

const sha256 = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, fieldMessage('sha256'))
  .describe('Hex SHA-256 of the PDF');

export function documentsOperations(documents: DocumentsService): Operation[] {
  return [
    defineOperation({
      name: 'verify_document',
      summary: 'Whether the service issued a PDF, and whether it is intact',
      description:
        'Public. POST /api/v1/documents/verify with the PDF itself as application/pdf (at most 10 MiB), ' +
        'or JSON { sha256 }. The SHA-256 is looked up among the fingerprints recorded when documents ' +
        'were issued: found means issued and intact, and the record signature is checked again; a ' +
        'changed byte or a foreign PDF is simply not found. The issuing business is not revealed ' +
        '(see docs/documents.md).',
      tag: 'Documents',
      kind: 'query',
      risk: 'low',
      access: { public: true },
      rest: {
        method: 'POST',
        path: '/v1/documents/verify',
        body: {
          bytes: { field: 'pdf', mediaTypes: ['application/pdf'] },
          limitBytes: MAX_DOCUMENT_BYTES,
          unsupported: 'UNSUPPORTED_DOCUMENT_TYPE',
        },
      },
      input: z
        .object({
          pdf: z.instanceof(Buffer).optional().describe('The PDF bytes (REST: an application/pdf body)'),
          sha256: sha256.optional(),
        })
        .refine((by) => (by.pdf === undefined) !== (by.sha256 === undefined), {
          ...fieldMessage('pdf_or_sha256'),
          path: ['sha256'],
        }),
      output: z.object({
        result: z.literal(true),
        issued: z.boolean(),
        intact: z.boolean(),
        sha256: z.string(),
        kind: z.string().optional(),
        issued_at: z.string().optional(),
        reference: z.string().optional().describe('What the document is about, as printed on it'),
        key_id: z.string().optional(),
        signature: z.string().optional().describe('Base64 Ed25519 signature of the record'),
        signature_valid: z.boolean().optional(),
      }),
      handler: async (ctx, input) => {
        const found = await documents.verify(ctx.db, input);
        return {
          result: true as const,
          issued: found.issued,
          intact: found.intact,
          sha256: found.sha256,
          kind: found.kind,
          issued_at: found.issuedAt?.toISOString(),
          reference: found.reference,
          key_id: found.keyId,
          signature: found.signature?.toString('base64'),
          signature_valid: found.signatureValid,
        };
      },
    }),
    defineOperation({
      name: 'get_document_public_key',
      summary: 'The public key that signs document fingerprints, to check signatures offline',
      description:
        'Public. `public_key_pem` is the Ed25519 key signing now; `keys` holds every key that signed ' +
        'a recorded document (older ones stay after a rotation). Signatures cover ' +
        '`tms-document:v1:<sha256>:<kind>:<issued_at>:<reference>` (see docs/documents.md).',
      tag: 'Documents',
      kind: 'query',
      risk: 'low',
      access: { public: true },
      rest: { method: 'GET', path: '/v1/documents/public-key' },
      input: z.object({}),
      output: z.object({
        result: z.literal(true),
        algorithm: z.literal('Ed25519'),
        key_id: z.string(),
        public_key_pem: z.string(),
        keys: z.array(
          z.object({ key_id: z.string(), public_key_pem: z.string(), first_used_at: z.string() }),
        ),
      }),
      handler: async (ctx) => {
        const { current, keys } = await documents.publicKeys(ctx.db);
        return {
          result: true as const,
          algorithm: 'Ed25519' as const,
          key_id: current.keyId,
          public_key_pem: current.publicKeyPem,
          keys: keys.map((key) => ({
            key_id: key.keyId,
            public_key_pem: key.publicKeyPem,
            first_used_at: key.firstUsedAt.toISOString(),
          })),
        };
      },
    }),
  ];
}
