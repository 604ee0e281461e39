import { z } from 'zod';
import { defineOperation, type Operation, Representation } from '../../platform/catalog/operation.ts';
import { EMPTY_TWIML, type SmsInbound } from './inbound.ts';
import { TAG } from './settings-operations.ts';

const PUBLIC = { public: true } as const;
const LIMIT_BYTES = 65_536;
const businessId = z.int().min(1).describe("The business's id, as in the address given to the provider");
const twilioBody = {
  bytes: { field: 'body', mediaTypes: ['application/x-www-form-urlencoded'] },
  limitBytes: LIMIT_BYTES,
} as const;
const jsonBody = {
  bytes: { field: 'body', mediaTypes: ['application/json'] },
  limitBytes: LIMIT_BYTES,
} as const;
const twilioInput = z.object({
  business_id: businessId,
  body: z.instanceof(Buffer).describe('The form Twilio posts, as signed'),
  signature: z.string().max(200).optional().describe('The X-Twilio-Signature header'),
});
const genericInput = z.object({
  business_id: businessId,
  body: z.instanceof(Buffer).describe('The raw JSON body, as signed'),
  signature: z
    .string()
    .max(200)
    .optional()
    .describe('The X-Signature header: hex HMAC-SHA256 of the raw body'),
});
const inboundAnswer = z.object({
  result: z.literal(true),
  duplicate: z.boolean().describe('The provider sent this message id before: nothing more changed'),
  keyword: z.enum(['stop', 'help', 'start']).nullable(),
});
const reportAnswer = z.object({ result: z.literal(true), updated: z.boolean() });

const twiml = () => new Representation('text/xml; charset=utf-8', Buffer.from(EMPTY_TWIML));

const UNVERIFIED_RULE =
  'A missing or wrong signature, or a business whose provider is not this one, is refused with 401 SMS_WEBHOOK_UNVERIFIED and nothing is stored.';

export function inboundOperations(inbound: SmsInbound): Operation[] {
  return [
    defineOperation({
      name: 'receive_sms_twilio',
      summary: 'Messages in from Twilio (STOP, HELP, START, YES ...)',
      description: `Public: Twilio's messaging webhook (application/x-www-form-urlencoded), checked with X-Twilio-Signature over the service's public address of this endpoint and the form, with the business's auth token. ${UNVERIFIED_RULE} A MessageSid taken before changes nothing more. Answers empty TwiML.`,
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: PUBLIC,
      errors: ['SMS_WEBHOOK_UNVERIFIED'],
      rest: {
        method: 'POST',
        path: '/v1/sms/inbound/:business_id/twilio',
        body: twilioBody,
        headers: { 'x-twilio-signature': 'signature' },
      },
      input: twilioInput,
      output: inboundAnswer,
      handler: async (ctx, input) => {
        await inbound.fromTwilio(ctx.db, input);
        return twiml();
      },
    }),
    defineOperation({
      name: 'receive_sms_generic',
      summary: 'Messages in from the generic HTTP provider',
      description: `Public: JSON {id, from, to, text, received_at}; X-Signature is the hex HMAC-SHA256 of the raw body with the business's generic provider secret. ${UNVERIFIED_RULE} An id taken before changes nothing more.`,
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: PUBLIC,
      errors: ['SMS_WEBHOOK_UNVERIFIED'],
      rest: {
        method: 'POST',
        path: '/v1/sms/inbound/:business_id/generic',
        body: jsonBody,
        headers: { 'x-signature': 'signature' },
      },
      input: genericInput,
      output: inboundAnswer,
      handler: (ctx, input) => inbound.fromGeneric(ctx.db, input),
    }),
    defineOperation({
      name: 'receive_sms_status_twilio',
      summary: "Twilio's delivery reports",
      description: `Public: Twilio's status callback (form: MessageSid, MessageStatus, ErrorCode), signed like its messages. ${UNVERIFIED_RULE} delivered, undelivered and failed are final; a delivered message never goes back.`,
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: PUBLIC,
      errors: ['SMS_WEBHOOK_UNVERIFIED'],
      rest: {
        method: 'POST',
        path: '/v1/sms/status/:business_id/twilio',
        body: twilioBody,
        headers: { 'x-twilio-signature': 'signature' },
      },
      input: twilioInput,
      output: reportAnswer,
      handler: async (ctx, input) => {
        await inbound.reportFromTwilio(ctx.db, input);
        return twiml();
      },
    }),
    defineOperation({
      name: 'receive_sms_status_generic',
      summary: "The generic HTTP provider's delivery reports",
      description: `Public: JSON {message_id, status, error?}, signed like its messages (X-Signature). ${UNVERIFIED_RULE} delivered, undelivered and failed are final; a delivered message never goes back.`,
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: PUBLIC,
      errors: ['SMS_WEBHOOK_UNVERIFIED'],
      rest: {
        method: 'POST',
        path: '/v1/sms/status/:business_id/generic',
        body: jsonBody,
        headers: { 'x-signature': 'signature' },
      },
      input: genericInput,
      output: reportAnswer,
      handler: (ctx, input) => inbound.reportFromGeneric(ctx.db, input),
    }),
  ];
}
