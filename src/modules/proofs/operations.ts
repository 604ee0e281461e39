import { z } from 'zod';
import { defineOperation, type Operation, Representation, STAFF } from '../../platform/catalog/operation.ts';
import { idParam } from '../../platform/schemas.ts';
import { MAX_IMAGE_SIDE, PROOF_MEDIA_TYPES } from './images.ts';
import { PROOF_LINK_LIFETIME_SECONDS } from './links.ts';
import { MAX_PROOF_BYTES, PROOF_KINDS, type ProofsService } from './service.ts';

const proofSchema = z.object({
  id: z
    .int()
    .describe('Name it in proof_of_delivery.signature_proof_id or photo_proof_ids of a status change'),
  order_id: z.int(),
  kind: z.enum(PROOF_KINDS),
  content_type: z.string().describe(PROOF_MEDIA_TYPES.join(', ')),
  size_bytes: z.int(),
  sha256: z.string().describe('Lowercase hex SHA-256 of the image'),
  width: z.int(),
  height: z.int(),
  uploaded_by: z.int().describe('User id of the uploader'),
  created_at: z.string(),
});

/** Every part of a link is taken as text, so a malformed link is refused like a wrong one: 404. */
const linkPart = z.string().max(200);

export function proofsOperations(proofs: ProofsService): Operation[] {
  return [
    defineOperation({
      name: 'upload_proof',
      summary: 'Upload a signature or a photo as proof of delivery of an order',
      description:
        `POST /api/v1/driver/orders/{order_id}/proofs?kind=signature|photo with the image itself as the body, ` +
        `typed ${PROOF_MEDIA_TYPES.join(', ')} (at most ${MAX_PROOF_BYTES / 1024 / 1024} MiB and ` +
        `${MAX_IMAGE_SIDE} pixels a side). The bytes must be an image of the declared type. A driver ` +
        'uploads for an order on a route of theirs only; staff for any order of the business. The same ' +
        "client_id from the same uploader answers the first upload again. Name the answer's id in the " +
        'proof_of_delivery of the status change (signature_proof_id, photo_proof_ids); once the parcel ' +
        'is delivered the public tracking page shows the images through short-lived links (docs/proofs.md).',
      tag: 'Driver',
      kind: 'mutation',
      risk: 'low',
      access: { kinds: ['driver', ...STAFF], scopes: ['orders:write'] },
      errors: ['ORDER_NOT_FOUND', 'UNSUPPORTED_PROOF_TYPE', 'PROOF_NOT_AN_IMAGE', 'PAYLOAD_TOO_LARGE'],
      rest: {
        method: 'POST',
        path: '/v1/driver/orders/:order_id/proofs',
        body: {
          bytes: { field: 'image', mediaTypes: PROOF_MEDIA_TYPES, typeField: 'content_type' },
          limitBytes: MAX_PROOF_BYTES,
          unsupported: 'UNSUPPORTED_PROOF_TYPE',
        },
      },
      input: z.object({
        order_id: idParam,
        kind: z
          .enum(PROOF_KINDS)
          .describe('signature: the recipient signed; photo: the parcel where it was left'),
        client_id: z
          .string()
          .trim()
          .min(1)
          .max(100)
          .optional()
          .describe("The uploader's own id of this upload: sent again, the first upload's answer comes back"),
        image: z.instanceof(Buffer).optional().describe('The image bytes (REST: the request body)'),
        content_type: z.string().max(100).optional().describe("The body's media type (REST: Content-Type)"),
      }),
      output: z.object({ result: z.literal(true), proof: proofSchema }),
      handler: async (ctx, input) => ({
        result: true as const,
        proof: await proofs.upload(ctx, {
          orderId: input.order_id,
          kind: input.kind,
          bytes: input.image,
          contentType: input.content_type,
          clientId: input.client_id,
        }),
      }),
    }),
    defineOperation({
      name: 'get_proof_file',
      summary: 'A proof of delivery image, through the signed link the public tracking answer gives',
      description:
        'Public. GET /api/v1/proofs/{proof_id}?expires={unix seconds}&signature={HMAC} answers the image ' +
        `itself, never JSON. Links come only from the tracking answer of a delivered parcel and open for ` +
        `at most ${PROOF_LINK_LIFETIME_SECONDS / 60} minutes; a wrong, expired or unknown link is 404 ` +
        'PROOF_LINK_INVALID, whichever it is (docs/proofs.md).',
      tag: 'Tracking',
      kind: 'query',
      risk: 'low',
      access: { public: true },
      errors: ['PROOF_LINK_INVALID'],
      representations: PROOF_MEDIA_TYPES,
      rest: { method: 'GET', path: '/v1/proofs/:proof_id' },
      input: z.object({ proof_id: linkPart, expires: linkPart.optional(), signature: linkPart.optional() }),
      output: z
        .object({ result: z.literal(true) })
        .describe('Never sent: the answer is the image in its own media type'),
      handler: async (ctx, input) => {
        const file = await proofs.serve(ctx.db, {
          proofId: input.proof_id,
          expires: input.expires,
          signature: input.signature,
        });
        return new Representation(file.contentType, file.bytes, {
          // Kept by the browser alone, and no longer than the link opens.
          'cache-control': `private, max-age=${file.maxAgeSeconds}`,
          'x-content-type-options': 'nosniff',
        });
      },
    }),
  ];
}
