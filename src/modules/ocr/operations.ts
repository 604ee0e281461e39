import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { type OrdersService, orderInputSchema, orderSchema, orderWarningSchema } from '../orders/index.ts';
import { MAX_KEEP_DAYS } from './images.ts';
import { LABEL_MEDIA_TYPES, MAX_LABEL_BYTES } from './reading/index.ts';
import type { OcrService } from './service.ts';

const TAG = 'OCR';
/** A driver photographs a label; staff read one at the desk. Reading changes nothing: an order read. */
const READ = { kinds: [...STAFF, 'driver'] as const, scopes: ['orders:read'] };
/** Creating the order is create_order's access (less customers, who do not handle parcels). */
const WRITE = { kinds: STAFF, scopes: ['orders:write'] };
/** Whether label images are kept is the business's privacy choice: its admin's. */
const ADMIN_READ = { kinds: ['client_admin'] as const, scopes: ['orders:read'] };
const ADMIN_WRITE = { kinds: ['client_admin'] as const, scopes: ['orders:write'] };

const settingsSchema = z.object({
  result: z.literal(true),
  keep_label_images_days: z.int().describe('0: label images are never kept (the default)'),
  updated_at: z.string().nullable().describe('null: never set'),
});
const MIB = MAX_LABEL_BYTES / 1024 / 1024;

const region = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });
const found = <T extends z.ZodType>(value: T) =>
  z.object({
    value,
    confidence: z.number().describe('0 to 1: 1 for a barcode whose check digits hold'),
    region: region.nullable(),
    source: z.enum(['barcode', 'text']),
  });
const labelAddress = z.object({
  lines: z.array(z.string()).describe('As printed, top to bottom'),
  name: z.string().nullable(),
  street: z.array(z.string()),
  postal_code: z.string().nullable(),
  city: z.string().nullable(),
  country: z.string().nullable().describe('ISO 3166-1 alpha-2'),
});
const readingSchema = z.object({
  width: z.int().describe('Pixels of the image read (a PDF page: at 300 dpi)'),
  height: z.int(),
  fields: z.object({
    tracking_numbers: z.array(
      found(
        z.object({
          number: z.string().describe('Normalised: upper case, no spaces'),
          carrier: z.string(),
          format: z.string(),
        }),
      ),
    ),
    carrier: found(z.string()).nullable(),
    sender: found(labelAddress).nullable(),
    recipient: found(labelAddress).nullable(),
    references: z.array(found(z.string())),
    weight: found(
      z.object({ value: z.number(), unit: z.enum(['kg', 'g', 'lb', 'oz']), grams: z.number() }),
    ).nullable(),
    dimensions: found(
      z.object({
        length: z.number(),
        width: z.number(),
        height: z.number(),
        unit: z.enum(['cm', 'mm', 'in']),
      }),
    ).nullable(),
    service_level: found(z.string()).nullable(),
  }),
  barcodes: z.array(z.object({ format: z.string(), text: z.string(), region })),
  text: z.string().describe('The recognised text, line by line'),
});

const matchSchema = z.object({
  kind: z.enum(['order', 'shipping_label', 'inbound_parcel']),
  id: z.int().describe('The order, shipping label or package id'),
  tracking_number: z.string().describe('The number read that matched'),
  order_id: z.int().optional().describe('shipping_label, inbound_parcel: the order it belongs to'),
  order_ref: z.string().optional().describe('order'),
  status: z.string().optional().describe("order: the order's status"),
  via: z
    .enum(['package', 'label'])
    .optional()
    .describe(
      "order: package = one of its packages' numbers; label = a carrier number recorded from a label",
    ),
  carrier: z.string().optional().describe('shipping_label'),
  service: z.string().optional().describe('shipping_label'),
  warehouse_id: z.int().optional().describe('inbound_parcel'),
  state: z.string().optional().describe('inbound_parcel: its state in the warehouse'),
});

// Its fields without create_order's cross-field rules: a draft may still miss what they need.
const draftOrderSchema = z
  .object(orderInputSchema.shape)
  .partial()
  .describe("create_order's input as far as the label filled it");

const trackingNumbers = z
  .array(
    z
      .string()
      .transform((text) => text.replace(/\s+/g, '').toUpperCase())
      .pipe(z.string().regex(/^[A-Z0-9]{6,40}$/)),
  )
  .max(20);

const imageBase64 = z.string();
const contentType = z.string().describe('image/png, image/jpeg, application/pdf');

export function ocrOperations(ocr: OcrService, orders: OrdersService): Operation[] {
  return [
    defineOperation({
      name: 'parse_label',
      summary: 'Read a shipping label',
      description:
        `POST /api/v1/labels/parse with the image itself as the body, typed ${LABEL_MEDIA_TYPES.join(', ')} ` +
        `(at most ${MIB} MiB); GraphQL and MCP send image_base64 and content_type. Answers what the label says ` +
        '(tracking numbers with their carrier, sender, recipient, references, weight, dimensions, service, ' +
        "barcodes and text), the caller's business's orders, shipping labels and warehouse parcels carrying " +
        "one of its numbers (a driver: orders on a route of theirs only), and a draft of create_order's input " +
        'with the fields still missing. Changes nothing and keeps nothing, the image included: send the ' +
        'corrected draft to create_order_from_label to create the order (docs/ocr.md).',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      expensive: true,
      tool: {
        user: 'parse_label',
        guide: 'Read a label photo: its fields, matching orders, order draft.',
      },
      access: READ,
      errors: [
        'UNSUPPORTED_LABEL_TYPE',
        'LABEL_NOT_READABLE',
        'LABEL_IMAGE_TOO_LARGE',
        'LABEL_READER_BUSY',
        'PAYLOAD_TOO_LARGE',
      ],
      rest: {
        method: 'POST',
        path: '/v1/labels/parse',
        body: {
          bytes: { field: 'image', mediaTypes: LABEL_MEDIA_TYPES, typeField: 'content_type' },
          limitBytes: MAX_LABEL_BYTES,
          unsupported: 'UNSUPPORTED_LABEL_TYPE',
        },
      },
      graphql: 'parseLabel',
      input: z
        .object({
          // REST only: the body's bytes. Unrepresentable in JSON, so left undescribed for the other doors.
          image: z.instanceof(Buffer).optional(),
          image_base64: imageBase64.optional(),
          content_type: contentType.optional(),
        })
        .superRefine((input, ctx) => {
          if (input.image === undefined && input.image_base64 === undefined) {
            ctx.addIssue({
              code: 'invalid_type',
              expected: 'string',
              input: undefined,
              path: ['image_base64'],
            });
          }
        }),
      output: z.object({
        result: z.literal(true),
        reading: readingSchema,
        matches: z.array(matchSchema),
        order_draft: z.object({
          order: draftOrderSchema,
          tracking_numbers: z.array(z.string()).describe('The carrier tracking numbers read'),
          carrier: z.string().nullable(),
          missing: z.array(z.string()).describe("create_order's fields still to fill (dropoff, pickup)"),
        }),
      }),
      handler: async (ctx, input) => ({
        result: true as const,
        ...(await ocr.parse(ctx, {
          bytes: input.image,
          base64: input.image_base64,
          contentType: input.content_type,
        })),
      }),
    }),
    defineOperation({
      name: 'create_order_from_label',
      summary: 'Create the order a read label drafted, once the caller has checked it',
      description:
        "Send parse_label's order_draft as corrected: `order` is create_order's input (same checks, same " +
        'refusals), `tracking_numbers` the carrier numbers read, recorded with the order so the same label ' +
        'read again matches it. The same client_id again answers the first order (created: false). When the ' +
        'business keeps label images (set_label_reading_settings), label_image_base64 and label_image_content_type ' +
        'keep the image with the order for that many days; otherwise sending one is refused 409 ' +
        'LABEL_IMAGES_NOT_KEPT (docs/ocr.md).',
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      access: WRITE,
      errors: [
        'ORDER_REF_TAKEN',
        'CUSTOMER_NOT_FOUND',
        'SAVED_ADDRESS_NOT_FOUND',
        'CONCURRENT_UPDATE',
        'LABEL_IMAGES_NOT_KEPT',
        'UNSUPPORTED_LABEL_TYPE',
        'LABEL_NOT_READABLE',
        'PAYLOAD_TOO_LARGE',
      ],
      rest: { method: 'POST', path: '/v1/labels/orders' },
      graphql: 'createOrderFromLabel',
      input: z.object({
        order: orderInputSchema,
        tracking_numbers: trackingNumbers.default([]),
        client_id: z
          .string()
          .trim()
          .min(1)
          .max(100)
          .optional()
          .describe("The caller's own id of this creation: sent again, the first order comes back"),
        label_image_base64: imageBase64
          .optional()
          .describe(`The label image, kept only if the business keeps them (at most ${MIB} MiB decoded)`),
        label_image_content_type: contentType.optional(),
      }),
      output: z.object({
        result: z.literal(true),
        created: z.boolean().describe('false: this client_id created the order before'),
        order: orderSchema,
        tracking_numbers: z.array(z.string()),
        label_image: z
          .object({ id: z.int(), expires_at: z.string().describe('When it is removed') })
          .nullable()
          .describe('The label image kept with the order; null: none'),
        warnings: z.array(orderWarningSchema),
      }),
      handler: async (ctx, input) => {
        const { order, created, trackingNumbers, image } = await ocr.createOrder(ctx, {
          order: input.order,
          trackingNumbers: input.tracking_numbers,
          clientId: input.client_id,
          image:
            input.label_image_base64 === undefined
              ? undefined
              : { base64: input.label_image_base64, contentType: input.label_image_content_type },
        });
        return {
          result: true as const,
          created,
          order,
          tracking_numbers: trackingNumbers,
          label_image: image,
          warnings: orders.locations.warningsOf(ctx, [order]),
        };
      },
    }),
    defineOperation({
      name: 'get_label_reading_settings',
      summary: 'Whether the business keeps the label images its orders are created from, and how long',
      description:
        'keep_label_images_days: 0 (the default) means a label image is never kept; otherwise an image sent ' +
        'with create_order_from_label is kept with its order that many days, then removed (docs/ocr.md).',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      access: ADMIN_READ,
      rest: { method: 'GET', path: '/v1/labels/settings' },
      graphql: 'labelReadingSettings',
      input: z.object({}),
      output: settingsSchema,
      handler: async (ctx) => ({ result: true as const, ...(await ocr.images.settings(ctx)) }),
    }),
    defineOperation({
      name: 'set_label_reading_settings',
      summary: 'Choose whether, and how many days, label images are kept with the orders made from them',
      description:
        `keep_label_images_days from 0 (never, the default) to ${MAX_KEEP_DAYS}. Applies to images sent from ` +
        'now on: an image kept already is removed at the end of the days it was kept for (docs/ocr.md).',
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      access: ADMIN_WRITE,
      rest: { method: 'PUT', path: '/v1/labels/settings' },
      graphql: 'setLabelReadingSettings',
      input: z.object({ keep_label_images_days: z.int().min(0).max(MAX_KEEP_DAYS) }),
      output: settingsSchema,
      handler: async (ctx, input) => ({
        result: true as const,
        ...(await ocr.images.saveSettings(ctx, input.keep_label_images_days)),
      }),
    }),
  ];
}
