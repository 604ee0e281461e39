import { z } from 'zod';
import { defineOperation, type Operation } from '../../platform/catalog/operation.ts';
import { pageEnvelope, pageParams } from '../../platform/pagination.ts';
import { idParam as id } from '../../platform/schemas.ts';
import { campaignStatusSchema } from './campaign-operations.ts';
import type { SmsReports } from './reports.ts';
import { FEATURE, STAFF_READ, TAG } from './settings-operations.ts';

const campaignFields = {
  id: z.int(),
  name: z.string(),
  status: campaignStatusSchema,
  scheduled_at: z.string().nullable(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  created_at: z.string(),
};

const count = z.int().min(0);

/** The read side of campaigns: what they did. Creating and running them is elsewhere in the module. */
export function reportOperations(reports: SmsReports): Operation[] {
  return [
    defineOperation({
      name: 'list_sms_campaigns',
      summary: 'SMS campaigns, newest first',
      description: 'With their messages sent (taken by the provider) and delivered; filter by status.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      feature: FEATURE,
      tool: {
        user: 'list_sms_campaigns',
        guide: 'SMS campaigns, newest first: status, schedule, sent and delivered.',
        idempotent: true,
      },
      access: STAFF_READ,
      rest: { method: 'GET', path: '/v1/sms/campaigns' },
      graphql: 'smsCampaigns',
      input: z.object({ status: campaignStatusSchema.optional(), ...pageParams }),
      output: z.object({
        result: z.literal(true),
        ...pageEnvelope,
        campaigns: z.array(z.object({ ...campaignFields, sent: count, delivered: count })),
      }),
      handler: (ctx, input) => reports.list(ctx, input),
    }),
    defineOperation({
      name: 'get_sms_campaign_report',
      summary: 'SMS campaign report',
      description:
        'Recipients by state, skipped ones by reason; messages sent (taken by the provider), delivered, failed; segments sent and their cost at the segment price of the settings; recipients who unsubscribed after their message; offer codes issued and redeemed.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      feature: FEATURE,
      tool: {
        user: 'get_sms_campaign_report',
        guide: 'One SMS campaign: sent, delivered, failed, cost, unsubscribes, codes redeemed.',
        idempotent: true,
      },
      access: STAFF_READ,
      errors: ['SMS_CAMPAIGN_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/sms/campaigns/:campaign_id/report' },
      graphql: 'smsCampaignReport',
      input: z.object({ campaign_id: id }),
      output: z.object({
        result: z.literal(true),
        campaign: z.object(campaignFields),
        recipients: z.object({
          total: count,
          queued: count,
          deferred: count,
          sent: count,
          delivered: count,
          failed: count,
          skipped: count,
        }),
        skipped_by_reason: z.array(z.object({ reason: z.string(), recipients: count })),
        messages: z.object({
          queued: count,
          sent: count,
          delivered: count,
          failed: count,
          segments_sent: count,
        }),
        cost: z.object({ amount: z.number(), currency: z.string() }),
        unsubscribed_after: count,
        offer_codes: z.object({ issued: count, redeemed: count }),
      }),
      handler: (ctx, input) => reports.report(ctx, input.campaign_id),
    }),
  ];
}
