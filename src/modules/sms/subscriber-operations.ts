import { z } from 'zod';
import { defineOperation, type Operation, Representation } from '../../platform/catalog/operation.ts';
import { cursorPageEnvelope, cursorPageParams } from '../../platform/pagination.ts';
import { confirmPage } from './confirm-page.ts';
import { ADMIN_WRITE, FEATURE, STAFF_READ, TAG } from './settings-operations.ts';
import {
  isTimeZone,
  MAX_ATTRIBUTES,
  MAX_TAG_LENGTH,
  MAX_TAGS,
  SUBSCRIBER_LANGUAGES,
} from './subscriber-profile.ts';
import { MAX_IMPORT_ROWS, type SmsSubscribers } from './subscribers.ts';
import { CONSENT_SOURCES, EVIDENCE_EVENTS, SUBSCRIBER_STATUSES } from './tables.ts';

const id = z.int().min(1);
const phone = z
  .string()
  .min(3)
  .max(40)
  .describe("The number, in E.164 or as written in the business's default region ('06 12 34 56 78')");
const language = z
  .enum(SUBSCRIBER_LANGUAGES)
  .meta({ title: 'SmsLanguage' })
  .describe("Of its messages; default from the number's country, else en");
const timeZone = z
  .string()
  .max(64)
  .refine(isTimeZone, 'an IANA time zone (Europe/Paris)')
  .describe("Where its quiet hours are counted; default the number's country's (see docs/sms-marketing.md)");
const tags = z.array(z.string().min(1).max(MAX_TAG_LENGTH)).max(MAX_TAGS);
const attributes = z
  .record(z.string().min(1).max(64), z.string().max(500))
  .refine((value) => Object.keys(value).length <= MAX_ATTRIBUTES, `at most ${MAX_ATTRIBUTES} attributes`)
  .describe('Free string fields for personalisation and segments');
const profile = {
  phone,
  language: language.optional(),
  time_zone: timeZone.optional(),
  tags: tags.optional(),
  attributes: attributes.optional(),
};

const subscriberStatus = z.enum(SUBSCRIBER_STATUSES).meta({ title: 'SmsSubscriberStatus' });
const subscriberView = z
  .object({
    id: z.int(),
    phone: z.string().describe('E.164'),
    status: subscriberStatus,
    language: z.string(),
    time_zone: z.string(),
    tags: z.array(z.string()),
    attributes: z.record(z.string(), z.string()),
    created_at: z.string(),
    confirmed_at: z.string().nullable(),
    unsubscribed_at: z.string().nullable(),
  })
  .meta({ title: 'SmsSubscriber' });
const evidenceView = z
  .object({
    event: z.enum(EVIDENCE_EVENTS),
    source: z.enum(CONSENT_SOURCES),
    consent_text: z.string().nullable(),
    consent_version: z.string().nullable(),
    requested_from: z.string().nullable().describe('The requesting address and browser, or the import row'),
    message_text: z.string().nullable().describe('The message that confirmed or ended it, as received'),
    message_id: z.string().nullable(),
    at: z.string(),
  })
  .meta({ title: 'SmsConsentEvidence' });
const subscriberAnswer = z.object({
  result: z.literal(true),
  subscriber: subscriberView
    .extend({ evidence: z.array(evidenceView).describe('Oldest first') })
    .meta({ title: 'SmsSubscriberWithEvidence' }),
});
const outcome = z
  .enum(['pending', 'confirmed', 'unchanged', 'unsubscribed'])
  .describe('pending: asked to confirm; unchanged: confirmed already');
const signed = {
  subscriber_id: id,
  signature: z.string().min(8).max(100).describe("The link's signature"),
};

export function subscriberOperations(subscribers: SmsSubscribers): Operation[] {
  return [
    defineOperation({
      name: 'create_sms_subscriber',
      summary: 'Add a subscriber: pending until the person confirms by reply or link',
      description:
        "The number is normalised to E.164 in the business's default region (an invalid one: 422 naming `phone`). " +
        'The subscriber starts pending with the consent wording of the settings as its evidence and is sent a confirmation; a confirmed subscriber asked again stays confirmed.',
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      feature: FEATURE,
      access: ADMIN_WRITE,
      rest: { method: 'POST', path: '/v1/sms/subscribers' },
      graphql: 'createSmsSubscriber',
      input: z.object({
        ...profile,
        source: z.enum(['api', 'checkout', 'form']).describe('Where the person asked'),
        requested_from: z.string().max(300).optional().describe('Their address or device, when known'),
      }),
      output: z.object({ result: z.literal(true), outcome, subscriber: subscriberView }),
      handler: (ctx, input) => subscribers.create(ctx, input),
    }),
    defineOperation({
      name: 'list_sms_subscribers',
      summary: "The business's subscribers, by status or tag",
      description:
        'Paged, oldest first. Only confirmed subscribers receive campaigns; pending ones wait for their reply or link, unsubscribed ones said STOP.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      feature: FEATURE,
      access: STAFF_READ,
      rest: { method: 'GET', path: '/v1/sms/subscribers' },
      graphql: 'smsSubscribers',
      input: z.object({
        ...cursorPageParams,
        status: subscriberStatus.optional(),
        tag: z.string().max(MAX_TAG_LENGTH).optional(),
      }),
      output: z.object({
        result: z.literal(true),
        ...cursorPageEnvelope,
        subscribers: z.array(subscriberView),
      }),
      handler: (ctx, input) => subscribers.list(ctx, input),
    }),
    defineOperation({
      name: 'get_sms_subscriber',
      summary: 'A subscriber with the whole evidence of its consent',
      description:
        'Every request, confirmation, unsubscription and re-subscription, oldest first: source, consent wording and version, where the request came from, the message that confirmed or ended it, and when.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      feature: FEATURE,
      access: STAFF_READ,
      errors: ['SMS_SUBSCRIBER_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/sms/subscribers/:id' },
      graphql: 'smsSubscriber',
      input: z.object({ id }),
      output: subscriberAnswer,
      handler: (ctx, input) => subscribers.get(ctx, input.id),
    }),
    defineOperation({
      name: 'update_sms_subscriber',
      summary: "A subscriber's tags, attributes, language or time zone (never its status)",
      description: 'Only the fields given change; tags and attributes given replace the old ones.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      feature: FEATURE,
      access: ADMIN_WRITE,
      errors: ['SMS_SUBSCRIBER_NOT_FOUND'],
      rest: { method: 'PATCH', path: '/v1/sms/subscribers/:id' },
      graphql: 'updateSmsSubscriber',
      input: z.object({
        id,
        tags: tags.optional(),
        attributes: attributes.optional(),
        language: language.optional(),
        time_zone: timeZone.optional(),
      }),
      output: subscriberAnswer,
      handler: (ctx, input) => subscribers.update(ctx, input),
    }),
    defineOperation({
      name: 'delete_sms_subscriber',
      summary: 'Erase a subscriber and the evidence of its consent',
      description:
        'Erasure on request: the subscriber and its evidence are gone; messages already sent keep their text, linked to no one. The same number added later starts pending again. To stop messages and keep the evidence, the person texts STOP instead.',
      tag: TAG,
      kind: 'mutation',
      risk: 'high',
      feature: FEATURE,
      access: ADMIN_WRITE,
      errors: ['SMS_SUBSCRIBER_NOT_FOUND'],
      rest: { method: 'DELETE', path: '/v1/sms/subscribers/:id' },
      graphql: 'deleteSmsSubscriber',
      input: z.object({ id }),
      output: z.object({ result: z.literal(true), deleted: z.int() }),
      handler: (ctx, input) => subscribers.delete(ctx, input.id),
    }),
    defineOperation({
      name: 'import_sms_subscribers',
      summary: 'Import a list of subscribers, each with its consent evidence or pending',
      description:
        `Up to ${MAX_IMPORT_ROWS} rows. A row with consent_text, consent_version and consented_at is confirmed by that evidence (source import); a row without is pending and sent a confirmation. ` +
        'Any invalid row refuses the whole import (422, each row named as rows.N.field, N from 0, its number from 1 in the message): nothing is half-written. A number that unsubscribed stays unsubscribed.',
      tag: TAG,
      kind: 'mutation',
      risk: 'medium',
      expensive: true,
      feature: FEATURE,
      access: ADMIN_WRITE,
      rest: { method: 'POST', path: '/v1/sms/subscribers/import', body: { limitBytes: 8_388_608 } },
      graphql: 'importSmsSubscribers',
      input: z.object({
        rows: z
          .array(
            z.object({
              ...profile,
              consent_text: z.string().min(1).max(2000).optional(),
              consent_version: z.string().min(1).max(40).optional(),
              consented_at: z.iso.datetime({ offset: true }).optional(),
              requested_from: z
                .string()
                .max(300)
                .optional()
                .describe('Where the person agreed (address, device, shop)'),
              source: z.enum(['form', 'checkout', 'api']).optional().describe('How the person agreed'),
            }),
          )
          .min(1)
          .max(MAX_IMPORT_ROWS),
      }),
      output: z.object({
        result: z.literal(true),
        rows: z.int(),
        created: z.int().describe('Numbers new to the business'),
        confirmed: z.int().describe('Confirmed by their evidence'),
        pending: z.int().describe('Asked to confirm'),
        unchanged: z.int().describe('Confirmed already'),
        unsubscribed: z
          .int()
          .describe('Left unsubscribed: an import never brings back a number that said STOP'),
      }),
      handler: (ctx, input) => subscribers.import(ctx, input.rows),
    }),
    // ----- public: no account -----
    defineOperation({
      name: 'subscribe_sms',
      summary: "A business's web form: subscribe a number, to be confirmed by reply or link",
      description:
        'Public. The number gets a confirmation message; only the reply (YES) or the link in it confirms. The address and browser of the request are kept as evidence. Limited per client address; the answer is the same whether the number was known or not.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: { public: true },
      errors: ['BUSINESS_NOT_FOUND', 'SMS_MARKETING_DISABLED'],
      rest: { method: 'POST', path: '/v1/sms/subscribe/:business', headers: { 'user-agent': 'user_agent' } },
      graphql: 'subscribeSms',
      input: z.object({
        business: z.string().min(1).max(64).describe("The business's code"),
        phone,
        language: language.optional(),
        time_zone: timeZone.optional(),
        consent: z.literal(true).describe("The person ticked the business's consent wording"),
        user_agent: z.string().max(1000).optional().describe('The User-Agent header'),
      }),
      output: z.object({ result: z.literal(true) }),
      handler: (ctx, input) => subscribers.subscribe(ctx, input),
    }),
    defineOperation({
      name: 'get_sms_confirmation',
      summary: "A confirmation link's page: the subscription's state and a button to confirm",
      description:
        'Public with the signature of the link in the confirmation message; opening it changes nothing (link previewers open links too), its button confirms. A tampered link is 403.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      access: { public: true },
      errors: ['SMS_LINK_INVALID', 'SMS_MARKETING_DISABLED'],
      representations: ['text/html'],
      rest: { method: 'GET', path: '/v1/sms/confirm/:subscriber_id' },
      input: z.object(signed),
      output: z.object({ result: z.literal(true), status: subscriberStatus }),
      handler: async (ctx, input) => {
        const answer = await subscribers.linkState(ctx, input);
        return ctx.representation === 'text/html'
          ? new Representation(
              'text/html; charset=utf-8',
              Buffer.from(confirmPage(answer.status, input, ctx.lang)),
            )
          : answer;
      },
    }),
    defineOperation({
      name: 'confirm_sms_subscription',
      summary: 'Confirm a subscription through the signed link of its confirmation message',
      description:
        'Public with the signature: a pending subscriber becomes confirmed, with the address and browser as evidence. It confirms only the subscriber the link names; an unsubscribed one is not brought back by an old link (only a new START is). A tampered link is 403.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      access: { public: true },
      errors: ['SMS_LINK_INVALID', 'SMS_MARKETING_DISABLED'],
      representations: ['text/html'],
      rest: {
        method: 'POST',
        path: '/v1/sms/confirm/:subscriber_id',
        // The page's button posts an HTML form: its (empty) body is taken as it is.
        body: { bytes: { field: 'form', mediaTypes: ['application/x-www-form-urlencoded'] } },
        headers: { 'user-agent': 'user_agent' },
      },
      input: z.object({
        ...signed,
        form: z.instanceof(Buffer).optional().describe('The HTML form body (unused)'),
        user_agent: z.string().max(1000).optional(),
      }),
      output: z.object({ result: z.literal(true), status: subscriberStatus }),
      handler: async (ctx, input) => {
        const answer = await subscribers.confirmByLink(ctx, input);
        return ctx.representation === 'text/html'
          ? new Representation(
              'text/html; charset=utf-8',
              Buffer.from(confirmPage(answer.status, input, ctx.lang)),
            )
          : answer;
      },
    }),
  ];
}
