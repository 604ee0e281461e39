import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { cursorPageEnvelope, cursorPageParams } from '../../platform/pagination.ts';
import { idParam } from '../../platform/schemas.ts';
import type { WebhooksService } from './service.ts';
import { DELIVERY_STATES, WEBHOOK_KINDS } from './tables.ts';

const webhookUrl = z.union([z.literal(''), z.url({ protocol: /^https?$/ }).max(2000)]);

const settingsSchema = z.object({
  result: z.literal(true),
  customer_id: z.int().nullable().describe("null: the business's own settings; else a customer's override"),
  urls: z
    .record(z.enum(WEBHOOK_KINDS), z.string())
    .describe('One URL per event kind; blank = not subscribed'),
  active: z.boolean(),
  secret_hint: z.string().nullable().describe('The last characters of the signing secret'),
  disabled: z
    .record(z.string(), z.string())
    .describe('Kinds whose URL was switched off, and why (a 410 Gone)'),
  secret: z.string().optional().describe('The whole signing secret: only in the answer that generated it'),
});

export function webhooksOperations(webhooks: WebhooksService): Operation[] {
  return [
    defineOperation({
      name: 'get_webhook_settings',
      summary: "The business's webhook settings, or a customer's override (a customer reads its own)",
      description:
        "Which URL receives each event kind, whether deliveries are active, the kinds the service switched off after a receiver answered 410, and the last characters of the signing secret. Give customer_id to read a customer's override.",
      tag: 'Webhooks',
      kind: 'query',
      risk: 'low',
      tool: {
        developer: 'get_webhook_settings',
        guide:
          "The webhook settings of the business (or a customer's override): URLs per event kind and whether a signing secret is set.",
        idempotent: true,
      },
      access: { kinds: ['client_admin', 'customer'], scopes: ['webhooks:read'] },
      errors: ['CUSTOMER_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/webhook-settings' },
      graphql: 'webhookSettings',
      input: z.object({
        customer_id: idParam.optional().describe('A customer override; ignored for customer accounts'),
      }),
      output: settingsSchema,
      handler: (ctx, input) => webhooks.getSettings(ctx, input.customer_id),
    }),
    defineOperation({
      name: 'update_webhook_settings',
      summary: 'Partial update of webhook settings: URLs per event kind, active, signing secret',
      description:
        'Only the fields sent change; a blank URL unsubscribes its kind. A customer override (customer_id, or a ' +
        "customer account's own) wins over the business's settings for events about that customer. The signing " +
        'secret (16+ characters) is never answered in full, except once when generate_secret (or the first save) makes one.',
      tag: 'Webhooks',
      kind: 'mutation',
      risk: 'high',
      tool: {
        developer: 'update_webhook_settings',
        guide: 'Change the webhook settings: only the fields sent change; a blank URL unsubscribes its kind.',
        idempotent: true,
      },
      confirm: true,
      access: { kinds: ['client_admin', 'customer'], scopes: ['webhooks:write'] },
      errors: ['CUSTOMER_NOT_FOUND', 'WEBHOOK_URL_REFUSED'],
      rest: { method: 'PUT', path: '/v1/webhook-settings' },
      graphql: 'webhookSettingsUpdate',
      input: z.object({
        customer_id: idParam.optional(),
        urls: z.partialRecord(z.enum(WEBHOOK_KINDS), webhookUrl).optional(),
        active: z.boolean().optional(),
        secret: z.string().min(16).max(200).optional(),
        generate_secret: z.boolean().optional(),
      }),
      output: settingsSchema,
      handler: (ctx, input) => webhooks.updateSettings(ctx, input),
    }),
    defineOperation({
      name: 'get_webhook_delivery_logs',
      summary: 'Webhook delivery attempts, newest first',
      description:
        "Each attempt with its request headers, the receiver's status, an excerpt of its answer, latency and next retry. Filter by event kind, state or webhook id to follow one delivery.",
      tag: 'Webhooks',
      kind: 'query',
      risk: 'low',
      tool: {
        developer: 'get_webhook_delivery_logs',
        guide:
          "Recent webhook deliveries with their attempts, request headers, the receiver's status and an excerpt of its answer; filter by kind, state or webhook id.",
        idempotent: true,
      },
      access: { kinds: STAFF, scopes: ['webhooks:read'] },
      rest: { method: 'GET', path: '/v1/webhook-deliveries' },
      graphql: 'webhookDeliveryLogs',
      input: z.object({
        kind: z.enum(WEBHOOK_KINDS).optional(),
        state: z.enum(DELIVERY_STATES).optional(),
        webhook_id: z.string().max(100).optional(),
        ...cursorPageParams,
      }),
      output: z.object({
        result: z.literal(true),
        ...cursorPageEnvelope,
        deliveries: z.array(
          z.object({
            id: z.int(),
            webhook_id: z.string(),
            kind: z.string(),
            url: z.string(),
            attempt: z.int(),
            request_headers: z.record(z.string(), z.string()),
            response_status: z.int().nullable(),
            response_excerpt: z.string().nullable(),
            latency_ms: z.int().nullable(),
            error: z.string().nullable(),
            next_retry_at: z.string().nullable(),
            state: z.enum(DELIVERY_STATES),
            created_at: z.string(),
          }),
        ),
      }),
      handler: (ctx, input) => webhooks.logs(ctx, { ...input, message_id: input.webhook_id }),
    }),
    defineOperation({
      name: 'replay_webhook_delivery',
      summary: 'Send a logged delivery again: the same webhook-id, a new attempt',
      description:
        'Use it after fixing a receiver: the delivery goes out again with the same webhook-id, signed anew, so a receiver that deduplicates on it is safe.',
      tag: 'Webhooks',
      kind: 'mutation',
      risk: 'medium',
      tool: {
        developer: 'replay_webhook_delivery',
        guide: 'Send a logged webhook delivery again, by its delivery-log id, signed anew.',
      },
      access: { kinds: ['client_admin'], scopes: ['webhooks:write'] },
      errors: ['WEBHOOK_DELIVERY_NOT_FOUND'],
      rest: { method: 'POST', path: '/v1/webhook-deliveries/:delivery_id/replay' },
      graphql: 'replayWebhookDelivery',
      input: z.object({ delivery_id: idParam }),
      output: z.object({ result: z.literal(true), webhook_id: z.string() }),
      handler: (ctx, input) => webhooks.replay(ctx, input.delivery_id),
    }),
    defineOperation({
      name: 'test_webhook_delivery',
      summary: 'Send a signed test delivery to a URL now, and tell how it went',
      description:
        'Check a receiver before saving its URL in the settings: a real signed delivery is sent (public addresses only), and the answer says what the receiver said.',
      tag: 'Webhooks',
      kind: 'mutation',
      risk: 'medium',
      tool: {
        developer: 'test_webhook_delivery',
        guide:
          'Send a real signed test webhook to a URL (public addresses only) and answer what the receiver said; use it to check an endpoint before saving it in the settings.',
      },
      access: { kinds: ['client_admin'], scopes: ['webhooks:write'] },
      errors: ['WEBHOOK_URL_REFUSED', 'WEBHOOK_SECRET_MISSING'],
      rest: { method: 'POST', path: '/v1/webhook-settings/test' },
      graphql: 'testWebhookDelivery',
      input: z.object({
        url: z.url({ protocol: /^https?$/ }).max(2000),
        kind: z.enum(WEBHOOK_KINDS).default('order.created'),
      }),
      output: z.object({
        result: z.literal(true),
        delivered: z.boolean(),
        webhook_id: z.string(),
        response_status: z.int().nullable(),
        latency_ms: z.int().nullable(),
        error: z.string().nullable(),
      }),
      handler: (ctx, input) => webhooks.testDelivery(ctx, input),
    }),
    defineOperation({
      name: 'verify_webhook_signature',
      summary: 'Check the v1 and v2 signatures of a received webhook against a secret',
      description: 'Public: give the raw body exactly as received, its headers, and your signing secret.',
      tag: 'Webhooks',
      kind: 'query',
      risk: 'low',
      tool: {
        developer: 'verify_webhook_signature',
        guide:
          'Check a webhook delivery you received: give the raw body, its signature headers (or the signature) and your secret; answers whether the signature is valid, for both the v1 and the Standard Webhooks v2 schemes.',
        idempotent: true,
      },
      access: { public: true },
      rest: { method: 'POST', path: '/v1/webhooks/verify' },
      graphql: 'verifyWebhookSignature',
      input: z.object({
        payload: z.string().max(1_000_000),
        headers: z.record(z.string(), z.string()),
        secret: z.string().min(1).max(200),
        tolerance_seconds: z.int().min(1).max(86_400).optional(),
      }),
      output: z.object({
        result: z.literal(true),
        v1: z.object({ present: z.boolean(), valid: z.boolean() }),
        v2: z.object({ present: z.boolean(), valid: z.boolean(), reason: z.string().optional() }),
      }),
      handler: async (_ctx, input) => webhooks.verify(input),
    }),
  ];
}
