import { z } from 'zod';
import { businessOf, defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { daysBetween } from '../../platform/clock.ts';
import { fieldIssue } from '../../platform/i18n/field-messages.ts';
import { calendarDate, idParam } from '../../platform/schemas.ts';
import { MAX_RANGE_DAYS, PERIODS } from './periods.ts';
import { type AnalyticsService, DIGEST_EXCEPTIONS } from './service.ts';

const priceHidden = z
  .boolean()
  .optional()
  .describe("True when the business hides this family's prices from the caller: the money fields are absent");

const statusCount = z.object({ status: z.string(), orders: z.int() });
const reason = z.object({
  kind: z.enum(['failed_attempt', 'returned']),
  code: z.string().describe('The incident or return reason code; "unspecified" when none was given'),
  count: z.int(),
});

const summaryInput = z
  .object({
    period: z
      .enum(PERIODS)
      .optional()
      .describe(
        'today, the ISO week (Monday to Sunday) or the calendar month holding today, in the business time zone',
      ),
    from: calendarDate
      .optional()
      .describe(`First day of an explicit range (with to; at most ${MAX_RANGE_DAYS} days)`),
    to: calendarDate.optional().describe('Last day of the range, included'),
    customer_id: idParam
      .optional()
      .describe(
        "Staff: one customer's orders instead of the whole business's. Ignored for customer accounts.",
      ),
  })
  .superRefine((input, ctx) => {
    if ((input.from === undefined) !== (input.to === undefined)) {
      const path = [input.from === undefined ? 'from' : 'to'];
      ctx.addIssue({ code: 'custom', path, ...fieldIssue('both_or_neither', { fields: 'from, to' }) });
      return;
    }
    if (input.from === undefined || input.to === undefined) return;
    if (input.period !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['period'],
        ...fieldIssue('exactly_one_of', { fields: 'period, from/to' }),
      });
    }
    if (input.to < input.from) {
      ctx.addIssue({ code: 'custom', path: ['to'], ...fieldIssue('not_before', { field: 'from' }) });
    } else if (daysBetween(input.from, input.to) > MAX_RANGE_DAYS) {
      ctx.addIssue({ code: 'custom', path: ['to'], ...fieldIssue('at_most_days', { max: MAX_RANGE_DAYS }) });
    }
  });

const compared = (describe: string) =>
  z
    .object({
      value: z.number().nullable(),
      previous: z.number().nullable().describe('The same weekday a week before'),
      change: z.number().nullable().describe('value - previous (points for a rate)'),
    })
    .describe(describe);

export function analyticsOperations(analytics: AnalyticsService): Operation[] {
  return [
    defineOperation({
      name: 'rebuild_analytics',
      summary: "Build the business's order figures again from its orders",
      description:
        'For a rollup that missed changes (orders loaded into the database by other means than the service): ' +
        'the figures are cleared and counted again from the orders, in one transaction. Over REST it always ' +
        'runs as a job: 202 with a Location to follow (docs/jobs.md); the result counts the rollup rows written. ' +
        'Client admins only, with orders:write: what it rewrites is counted from the orders.',
      tag: 'Analytics',
      kind: 'mutation',
      risk: 'medium',
      expensive: true,
      // A large business's year of orders takes minutes: never held in a request.
      job: { when: () => true, budgetSeconds: () => 900 },
      access: { kinds: ['client_admin'], scopes: ['orders:write'] },
      rest: { method: 'POST', path: '/v1/analytics/rebuild' },
      graphql: 'rebuildAnalytics',
      input: z.object({}),
      output: z.object({
        result: z.literal(true),
        written: z
          .object({
            daily: z.int(),
            statuses: z.int(),
            revenue: z.int(),
            reasons: z.int(),
            exceptions: z.int(),
          })
          .describe('Rows of the rollup written, by table'),
      }),
      handler: async (ctx) => {
        let steps = 0;
        const written = await analytics.rebuild(ctx.db, businessOf(ctx), () =>
          ctx.progress?.(Math.min(90, ++steps * 20)),
        );
        return { result: true as const, written };
      },
    }),
    defineOperation({
      name: 'get_orders_summary',
      summary: "A period's order figures: created, delivered, failed, on-time rate, revenue",
      description:
        'Figures of a period of the business time zone (today, this ISO week, this month, or from/to, at most ' +
        `${MAX_RANGE_DAYS} days), read from a daily rollup. Each figure counts on the local day its event ` +
        'happened; by_status counts the orders created in the period by their status now. Customers see their ' +
        'own orders only, and no revenue of a family whose prices are hidden from them. Definitions: docs/analytics.md.',
      tag: 'Analytics',
      kind: 'query',
      reads: 'replica',
      risk: 'low',
      tool: {
        user: 'get_orders_summary',
        guide:
          'How orders went over a period (today, week, month, or from/to): created, delivered, failed, ' +
          'returned, cancelled, on-time rate, average delivery time, revenue by family and currency, ' +
          'top exceptions. One day against the week before: daily_digest.',
        idempotent: true,
      },
      access: { kinds: [...STAFF, 'customer'], scopes: ['analytics:read'], customer: 'customer_id' },
      rest: { method: 'GET', path: '/v1/analytics/orders-summary' },
      graphql: 'ordersSummary',
      input: summaryInput,
      output: z.object({
        result: z.literal(true),
        period: z.object({
          name: z.enum([...PERIODS, 'range']),
          from: z.string(),
          to: z.string(),
          time_zone: z.string(),
        }),
        customer_id: z.int().nullable().describe('null: the whole business'),
        created: z.int().describe('Orders created in the period'),
        delivered: z.int().describe('Orders delivered in the period'),
        failed_attempts: z.int().describe('Failed delivery attempts in the period'),
        returned: z.int(),
        cancelled: z.int(),
        on_time: z.object({
          rate: z
            .number()
            .nullable()
            .describe('on_time / (on_time + early + late), 0 to 1; null without a timed delivery'),
          on_time: z.int(),
          early: z.int(),
          late: z.int(),
          without_window: z.int().describe('Deliveries of orders without a time window: not in the rate'),
        }),
        average_delivery_minutes: z
          .number()
          .nullable()
          .describe('From creation to delivery, of the deliveries'),
        by_status: z.array(statusCount).describe('Orders created in the period, by their status now'),
        by_family: z.array(
          z.object({
            family: z.string(),
            created: z.int(),
            delivered: z.int(),
            failed_attempts: z.int(),
            returned: z.int(),
            cancelled: z.int(),
            on_time_rate: z.number().nullable(),
            average_delivery_minutes: z.number().nullable(),
            by_status: z.array(statusCount),
            price_hidden: priceHidden,
          }),
        ),
        revenue: z
          .array(
            z.object({
              family: z.string(),
              currency: z.string().optional(),
              amount: z
                .number()
                .optional()
                .describe('Major units: shipping prices and surcharges, tax left out'),
              orders: z.int(),
              price_hidden: priceHidden,
            }),
          )
          .describe(
            'Booked revenue: the orders created in the period and not cancelled, by family and currency',
          ),
        top_exception_reasons: z.array(reason),
        price_hidden: priceHidden,
      }),
      handler: (ctx, input) => analytics.summary(ctx, input),
    }),
    defineOperation({
      name: 'daily_digest',
      summary: 'One day in numbers and words, compared with the same weekday a week before',
      description:
        "A dispatcher's digest of one local day of the business (yesterday unless a date is given): orders in and " +
        'out, deliveries, failed attempts, on-time rate, routes and drivers, and the exceptions with their orders ' +
        `(at most ${DIGEST_EXCEPTIONS}), each figure next to the same weekday a week before, with a summary sentence in the ` +
        "caller's language. Definitions: docs/analytics.md.",
      tag: 'Analytics',
      kind: 'query',
      reads: 'replica',
      risk: 'low',
      tool: {
        user: 'daily_digest',
        guide:
          'A day in a few numbers and one sentence: orders in and out, delivered, failed, returned, cancelled, ' +
          'on-time rate, routes, drivers, exceptions with their orders, each against the same weekday a week ' +
          'before. Without a date: yesterday.',
        idempotent: true,
      },
      access: { kinds: STAFF, scopes: ['analytics:read'] },
      rest: { method: 'GET', path: '/v1/analytics/daily-digest' },
      graphql: 'dailyDigest',
      input: z.object({ date: calendarDate.optional().describe('The local day; yesterday when absent') }),
      output: z.object({
        result: z.literal(true),
        date: z.string(),
        compared_with: z.string().describe('The same weekday a week before'),
        time_zone: z.string(),
        summary: z.string().describe("The day in one paragraph, in the caller's language"),
        figures: z.object({
          orders_in: compared('Orders created'),
          orders_out: compared('Orders that reached an end state: delivered, returned or cancelled'),
          delivered: compared('Deliveries'),
          failed_attempts: compared('Failed delivery attempts'),
          returned: compared('Returns'),
          cancelled: compared('Cancellations'),
          on_time_rate: compared('Share of timed deliveries within their window, 0 to 1'),
          late: compared('Deliveries after their window'),
          average_delivery_minutes: compared('From creation to delivery'),
          routes: compared('Routes of the day'),
          drivers: compared('Drivers on those routes'),
          stops: compared('Stops on those routes'),
          distance_km: compared('Planned distance of those routes'),
        }),
        drivers: z.array(
          z.object({
            id: z.int(),
            name: z.string(),
            routes: z.int(),
            stops: z.int(),
            distance_km: z.number(),
          }),
        ),
        exceptions: z.object({
          count: z.int().describe('Failed attempts and returns of the day; the list shows the first 50'),
          orders: z.array(
            z.object({
              order_id: z.int(),
              order_ref: z.string(),
              family: z.string(),
              customer_id: z.int().nullable(),
              kind: z.enum(['failed_attempt', 'returned']),
              reason_code: z.string(),
              note: z.string().nullable(),
              at: z.string().describe('Local date and time'),
            }),
          ),
        }),
        top_exception_reasons: z.array(reason),
      }),
      handler: (ctx, input) => analytics.digest(ctx, input),
    }),
  ];
}
