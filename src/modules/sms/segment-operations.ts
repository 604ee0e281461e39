import { z } from 'zod';
import { defineOperation, type Operation } from '../../platform/catalog/operation.ts';
import { pageEnvelope, pageParams } from '../../platform/pagination.ts';
import { idParam as id } from '../../platform/schemas.ts';
import { rulesSchema, type SmsSegments } from './segments.ts';
import { ADMIN_WRITE, FEATURE, STAFF_READ, TAG } from './settings-operations.ts';

const segmentView = z
  .object({
    id: z.int(),
    name: z.string(),
    rules: rulesSchema,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ title: 'SmsSegment' });
const segmentAnswer = z.object({ result: z.literal(true), segment: segmentView });
const name = z.string().trim().min(1).max(120);
const common = { tag: TAG, feature: FEATURE } as const;

export function segmentOperations(segments: SmsSegments): Operation[] {
  return [
    defineOperation({
      ...common,
      name: 'create_sms_segment',
      summary: 'Save a segment: rules over tags, attributes, language and order history',
      description:
        'Every rule given must hold. A segment is evaluated when a campaign starts sending, never when saved; only confirmed subscribers are ever sent to. Order history matches orders on their recipient phone normalised to E.164 in the SMS region.',
      kind: 'mutation',
      risk: 'low',
      access: ADMIN_WRITE,
      rest: { method: 'POST', path: '/v1/sms/segments' },
      graphql: 'createSmsSegment',
      input: z.object({ name, rules: rulesSchema }),
      output: segmentAnswer,
      handler: (ctx, input) => segments.create(ctx, input),
    }),
    defineOperation({
      ...common,
      name: 'update_sms_segment',
      summary: 'Rename a segment or change its rules',
      description:
        'Only the fields given change. Campaigns already sending keep the audience they read when they started.',
      kind: 'mutation',
      risk: 'low',
      access: ADMIN_WRITE,
      errors: ['SMS_SEGMENT_NOT_FOUND'],
      rest: { method: 'PATCH', path: '/v1/sms/segments/:segment_id' },
      graphql: 'updateSmsSegment',
      input: z.object({ segment_id: id, name: name.optional(), rules: rulesSchema.optional() }),
      output: segmentAnswer,
      handler: (ctx, input) => segments.update(ctx, input),
    }),
    defineOperation({
      ...common,
      name: 'delete_sms_segment',
      summary: 'Delete a segment no campaign still to send uses',
      description:
        'Refused (409 SMS_SEGMENT_IN_USE) while a draft, scheduled, sending or paused campaign names it; finished campaigns forget it.',
      kind: 'mutation',
      risk: 'medium',
      access: ADMIN_WRITE,
      errors: ['SMS_SEGMENT_NOT_FOUND', 'SMS_SEGMENT_IN_USE'],
      rest: { method: 'DELETE', path: '/v1/sms/segments/:segment_id' },
      graphql: 'deleteSmsSegment',
      input: z.object({ segment_id: id }),
      output: z.object({ result: z.literal(true) }),
      handler: (ctx, input) => segments.remove(ctx, input),
    }),
    defineOperation({
      ...common,
      name: 'list_sms_segments',
      summary: "The business's saved segments",
      description: 'Each segment with its rules, by id, paged.',
      kind: 'query',
      risk: 'low',
      access: STAFF_READ,
      rest: { method: 'GET', path: '/v1/sms/segments' },
      graphql: 'smsSegments',
      input: z.object({ ...pageParams }),
      output: z.object({ result: z.literal(true), segments: z.array(segmentView), ...pageEnvelope }),
      handler: (ctx, input) => segments.list(ctx, input),
    }),
    defineOperation({
      ...common,
      name: 'preview_sms_segment',
      summary: 'How many confirmed subscribers a segment matches now, and the first of them',
      description: 'Evaluated now; phones are masked (country code and last two digits).',
      kind: 'query',
      risk: 'low',
      access: STAFF_READ,
      errors: ['SMS_SEGMENT_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/sms/segments/:segment_id/preview' },
      graphql: 'smsSegmentPreview',
      input: z.object({ segment_id: id }),
      output: z.object({
        result: z.literal(true),
        count: z.int(),
        subscribers: z.array(z.object({ id: z.int(), phone: z.string() })).describe('The first 20, by id'),
      }),
      handler: (ctx, input) => segments.preview(ctx, input),
    }),
  ];
}
