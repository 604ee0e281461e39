import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { calendarDate } from '../../platform/schemas.ts';
import { capacityDimensionSchema } from './schemas.ts';
import type { DispatchSuggestions } from './suggestion-reader.ts';
import { MAX_SUGGESTIONS, REASON_CODES, SUGGESTION_KINDS } from './suggestions.ts';

/** The operations AI agent family: off, revoked or not set up, its operations answer 409. */
const FEATURE = 'operations_agent';
const TAG = 'Operations AI Agent';

const suggestionSchema = z.object({
  id: z
    .string()
    .describe(
      'Derived from the day, the kind, its subjects and its write: the same observed state gives the same id',
    ),
  kind: z
    .enum(SUGGESTION_KINDS)
    .describe(
      'route_over_capacity: a route carries more than its vehicle takes; route_late: a route reaches pending stops after their window; ' +
        'release_hold: a held order whose address was placed after the hold; insert_order: an unplanned order that fits a route; ' +
        'idle_driver: a driver with a shift that day and no route',
    ),
  reason: z.object({
    code: z.enum(REASON_CODES),
    message: z.string().describe("The reason, a sentence in the caller's language"),
  }),
  order_id: z.int().nullable().describe('The order to insert, release or move'),
  route_id: z.int().nullable().describe('The route the order fits, or the route with the problem'),
  to_route_id: z.int().nullable().describe('Where the order moves to fix the route'),
  driver_id: z.int().nullable().describe('The idle driver'),
  added_distance_m: z
    .int()
    .nullable()
    .describe('Meters the order adds to the route it goes on (its route distance after minus before)'),
  dimension: capacityDimensionSchema.nullable().describe('The dimension most over'),
  over: z.int().nullable().describe('How much more than the capacity, in that dimension'),
  late_minutes: z
    .int()
    .nullable()
    .describe("Minutes after their windows, summed over the route's late stops"),
  late_stops: z.int().nullable(),
  write: z
    .object({
      tool: z.string().describe('A write tool of the user agent server'),
      arguments: z.record(z.string(), z.unknown()),
    })
    .nullable()
    .describe('The write that would fix it; null when no single write does (the reason says so)'),
});

/**
 * The dispatcher suggestions of the operations AI agent family: a read proposing actions from the
 * observed day, and turning one into an approval proposal. `proposalSchema` is the approval
 * queue's answer, handed over by the composition root.
 */
export function suggestionOperations(
  suggestions: DispatchSuggestions,
  proposalSchema: z.ZodType,
): Operation[] {
  const date = calendarDate.optional().describe("Default: today in the business's time zone");
  return [
    defineOperation({
      name: 'get_dispatch_suggestions',
      summary: 'What a dispatcher could do about a day, computed from its observed state',
      description:
        "Suggestions computed by the service itself with the plan edits' evaluation (no model): unplanned orders that fit a route " +
        'without breaking a window, capacity or shift (with the distance they add), routes over capacity or reaching stops after ' +
        'their windows (with the one move or re-sequencing that fixes it, if any), held orders whose address was placed after the ' +
        'hold, and drivers with a shift and no route. Each has a stable id, its reason and the write it would make; ' +
        `propose_dispatch_suggestion queues that write for approval. Best first, at most ${MAX_SUGGESTIONS} (total counts all). ` +
        'docs/dispatch-suggestions.md.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      // A big day's read is a few hundred milliseconds of CPU: a business runs only a few at once.
      expensive: true,
      feature: FEATURE,
      access: { kinds: STAFF, scopes: ['routes:read'] },
      rest: { method: 'GET', path: '/v1/dispatch/suggestions' },
      graphql: 'dispatchSuggestions',
      input: z.object({ date }),
      output: z.object({
        result: z.literal(true),
        date: z.string(),
        observed_at: z.string(),
        total: z.int().describe('Suggestions found, of which the first are listed'),
        suggestions: z.array(suggestionSchema),
      }),
      handler: (ctx, input) => suggestions.list(ctx, input),
    }),
    defineOperation({
      name: 'propose_dispatch_suggestion',
      summary: "Queue a dispatch suggestion's write for a person to approve",
      description:
        'Reads the day again and finds the suggestion by its id: gone (the day changed) answers 404 SUGGESTION_NOT_FOUND, one ' +
        'without a write 409 SUGGESTION_WITHOUT_WRITE. Otherwise its write goes to the approval queue as a pending proposal, its ' +
        "reason the suggestion's; another staff member approves it with approve_pending_write.",
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      expensive: true,
      feature: FEATURE,
      access: { kinds: STAFF, scopes: ['routes:read', 'approvals:read'] },
      errors: ['SUGGESTION_NOT_FOUND', 'SUGGESTION_WITHOUT_WRITE', 'TOOL_NOT_PROPOSABLE'],
      rest: { method: 'POST', path: '/v1/dispatch/suggestions/:suggestion_id/propose' },
      graphql: 'proposeDispatchSuggestion',
      input: z.object({
        suggestion_id: z.string().trim().min(1).max(80),
        date,
      }),
      output: z.object({ result: z.literal(true), proposal: proposalSchema }),
      handler: (ctx, input) => suggestions.propose(ctx, input),
    }),
  ];
}
