import { z } from 'zod';
import { defineOperation, type Operation } from '../../platform/catalog/operation.ts';
import { idParam as id } from '../../platform/schemas.ts';
import type { SmsCampaigns } from './campaigns.ts';
import { MAX_SEGMENTS } from './personalise.ts';
import { ADMIN_WRITE, FEATURE, STAFF_READ, TAG } from './settings-operations.ts';
import { CAMPAIGN_STATUSES, RECIPIENT_STATES } from './tables.ts';

const instant = z.iso.datetime({ offset: true });
export const campaignStatusSchema = z.enum(CAMPAIGN_STATUSES).meta({ title: 'SmsCampaignStatus' });
const campaignView = z
  .object({
    id: z.int(),
    name: z.string(),
    body: z.string(),
    segment_id: z.int().nullable().describe('Null: every confirmed subscriber'),
    status: campaignStatusSchema,
    scheduled_at: z.string().nullable(),
    offer_expires_at: z.string().nullable(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    created_at: z.string(),
    recipients: z
      .object(
        Object.fromEntries(RECIPIENT_STATES.map((state) => [state, z.int()])) as Record<
          (typeof RECIPIENT_STATES)[number],
          z.ZodInt
        >,
      )
      .describe('Recipients in each state'),
  })
  .meta({ title: 'SmsCampaign' });
const campaignAnswer = z.object({ result: z.literal(true), campaign: campaignView });
const common = { tag: TAG, feature: FEATURE } as const;
const byId = z.object({ campaign_id: id });
const body = z
  .string()
  .min(1)
  .max(1600)
  .describe(
    `The text; fields {first_name}, {last_name}, {attribute.KEY} (a missing value reads as nothing) and {offer_code}. At most ${MAX_SEGMENTS} segments with each field counted 20 characters long`,
  );
const content = {
  name: z.string().trim().min(1).max(120),
  body,
  segment_id: id.nullable().optional().describe('The segment sent to; none: every confirmed subscriber'),
  offer_expires_at: instant
    .nullable()
    .optional()
    .describe('When the offer codes expire: required when the body has {offer_code}'),
};

/** A change of a campaign's course: one id in, the campaign out. */
function move(
  name: string,
  summary: string,
  path: string,
  graphql: string,
  handler: (ctx: Parameters<Operation['handler']>[0], input: { campaign_id: number }) => Promise<unknown>,
  description?: string,
) {
  return defineOperation({
    ...common,
    name,
    summary,
    ...(description ? { description } : {}),
    kind: 'mutation',
    risk: 'medium',
    access: ADMIN_WRITE,
    errors: ['SMS_CAMPAIGN_NOT_FOUND', 'SMS_CAMPAIGN_WRONG_STATE'],
    rest: { method: 'POST', path: `/v1/sms/campaigns/:campaign_id/${path}` },
    graphql,
    input: byId,
    output: campaignAnswer,
    handler: (ctx, input) => handler(ctx, input) as Promise<z.infer<typeof campaignAnswer>>,
  });
}

export function campaignOperations(campaigns: SmsCampaigns): Operation[] {
  return [
    defineOperation({
      ...common,
      name: 'create_sms_campaign',
      summary: 'Write a campaign (a draft): its text with personalisation fields, and its segment',
      description:
        'Unknown fields are refused, naming the field. The segment is read when the campaign starts sending, not now.',
      kind: 'mutation',
      risk: 'low',
      access: ADMIN_WRITE,
      errors: ['SMS_SEGMENT_NOT_FOUND'],
      rest: { method: 'POST', path: '/v1/sms/campaigns' },
      graphql: 'createSmsCampaign',
      input: z.object(content),
      output: campaignAnswer,
      handler: (ctx, input) => campaigns.create(ctx, input),
    }),
    defineOperation({
      ...common,
      name: 'update_sms_campaign',
      summary: 'Change a draft campaign',
      description:
        'Only the fields given change; the body is checked again. Refused once the campaign is scheduled or sending.',
      kind: 'mutation',
      risk: 'low',
      access: ADMIN_WRITE,
      errors: ['SMS_CAMPAIGN_NOT_FOUND', 'SMS_CAMPAIGN_WRONG_STATE', 'SMS_SEGMENT_NOT_FOUND'],
      rest: { method: 'PATCH', path: '/v1/sms/campaigns/:campaign_id' },
      graphql: 'updateSmsCampaign',
      input: z.object({ campaign_id: id, ...z.object(content).partial().shape }),
      output: campaignAnswer,
      handler: (ctx, input) => campaigns.update(ctx, input),
    }),
    defineOperation({
      ...common,
      name: 'schedule_sms_campaign',
      summary: 'Send a campaign from a time on',
      description:
        'The segment is read at that time; quiet hours and caps are applied to each message as it is sent.',
      kind: 'mutation',
      risk: 'medium',
      access: ADMIN_WRITE,
      errors: ['SMS_CAMPAIGN_NOT_FOUND', 'SMS_CAMPAIGN_WRONG_STATE'],
      rest: { method: 'POST', path: '/v1/sms/campaigns/:campaign_id/schedule' },
      graphql: 'scheduleSmsCampaign',
      input: z.object({ campaign_id: id, at: instant.describe('When sending starts') }),
      output: campaignAnswer,
      handler: (ctx, input) => campaigns.schedule(ctx, input),
    }),
    move(
      'start_sms_campaign',
      'Start sending a campaign now',
      'start',
      'startSmsCampaign',
      (ctx, input) => campaigns.start(ctx, input),
      'The segment is read now; messages go at the pace of the provider (messages_per_second), each checked for consent, quiet hours and caps as it is sent. See preview_sms_campaign for a dry run.',
    ),
    move(
      'pause_sms_campaign',
      'Pause a campaign that is sending',
      'pause',
      'pauseSmsCampaign',
      (ctx, input) => campaigns.pause(ctx, input),
      'No message is written while paused; a batch under way finishes.',
    ),
    move(
      'resume_sms_campaign',
      'Resume a paused campaign',
      'resume',
      'resumeSmsCampaign',
      (ctx, input) => campaigns.resume(ctx, input),
      'Sending continues with the recipients not yet sent to, each checked again as it is sent.',
    ),
    move(
      'cancel_sms_campaign',
      'Cancel a campaign: recipients not yet sent to are skipped',
      'cancel',
      'cancelSmsCampaign',
      (ctx, input) => campaigns.cancel(ctx, input),
      'For good: the recipients not yet sent to are skipped with reason cancelled.',
    ),
    defineOperation({
      ...common,
      name: 'get_sms_campaign',
      summary: 'A campaign with its recipients counted by state',
      description:
        'Recipients are queued, deferred (quiet hours, day cap), sent, delivered, failed or skipped (unsubscribed, unconfirmed, week cap, cancelled).',
      kind: 'query',
      risk: 'low',
      access: STAFF_READ,
      errors: ['SMS_CAMPAIGN_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/sms/campaigns/:campaign_id' },
      graphql: 'smsCampaign',
      input: byId,
      output: campaignAnswer,
      handler: (ctx, input) => campaigns.get(ctx, input),
    }),
    defineOperation({
      ...common,
      name: 'preview_sms_campaign',
      summary: 'Dry run of a campaign: recipients, segments, encoding and cost, sending nothing',
      description:
        'Evaluates the segment now (confirmed subscribers only) and measures the message with each field filled as long as its longest value among them (a value outside printable ASCII counted as UCS-2) and the offer code with its 8 characters: segments_per_message and total_segments are upper bounds. The cost is total_segments at the segment cost of the settings. Writes nothing.',
      kind: 'query',
      risk: 'low',
      access: STAFF_READ,
      errors: ['SMS_CAMPAIGN_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/sms/campaigns/:campaign_id/preview' },
      graphql: 'smsCampaignPreview',
      input: byId,
      output: z.object({
        result: z.literal(true),
        recipients: z.int(),
        encoding: z.enum(['GSM-7', 'UCS-2']),
        segments_per_message: z.int(),
        characters_per_message: z.int(),
        total_segments: z.int(),
        estimated_cost: z.object({ amount: z.number(), currency: z.string() }),
      }),
      handler: (ctx, input) => campaigns.preview(ctx, input),
    }),
  ];
}
