// The webhooks module (webhook settings and deliveries): what other modules, the doors and the composition root may use.
export { webhooksOperations } from './operations.ts';
export { WEBHOOK_TOPIC, WebhooksService } from './service.ts';
