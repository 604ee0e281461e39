import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { pageEnvelope, pageParams } from '../../platform/pagination.ts';
import { calendarDate, idParam } from '../../platform/schemas.ts';
import { type AgentService, HISTORY_TURNS, MAX_TURN_TEXT, MAX_USAGE_DAYS } from './service.ts';
import { MAX_TOOL_CALLS } from './tool-loop.ts';

/** The operations AI agent family: off, revoked or not set up, its operations answer 409. */
const FEATURE = 'operations_agent';
const TAG = 'Operations AI Agent';
/** Staff, and customers over what their own token may read (docs/agent.md). */
const USERS = { kinds: [...STAFF, 'customer'] as const, scopes: ['agent:use'] };
const STAFF_USERS = { kinds: STAFF, scopes: ['agent:use'] };

const conversationSchema = z
  .object({
    id: z.int(),
    title: z.string().describe('Given at creation, or the start of its first turn'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ title: 'AgentConversation' });
const conversationParam = { conversation_id: idParam };

/** The agent's operations; `proposalSchema` is the approval queue's view of a proposal. */
export function agentOperations(agent: AgentService, proposalSchema: z.ZodType): Operation[] {
  const turnSchema = z
    .object({
      id: z.int(),
      text: z.string().describe('What the person asked'),
      answer: z.string().describe("The model's answer"),
      tool_calls: z.array(
        z
          .object({
            name: z.string(),
            arguments: z.record(z.string(), z.unknown()),
            summary: z
              .string()
              .describe('A short account of the answer: list sizes, then the start of its JSON'),
            refused: z
              .boolean()
              .describe(
                'The call was refused (scopes, not offered, bound reached): the model got the refusal',
              ),
          })
          .meta({ title: 'AgentToolCall' }),
      ),
      proposals: z
        .array(proposalSchema)
        .describe('Writes the model asked for, queued for a person to approve'),
      model: z.string(),
      usage: z.object({ input_tokens: z.int(), output_tokens: z.int() }),
      duration_ms: z.int(),
      created_at: z.string(),
    })
    .meta({ title: 'AgentTurn' });
  return [
    defineOperation({
      name: 'set_agent_settings',
      summary: 'Set up the operations AI agent for your business: its own instructions to the model',
      description:
        'The first save sets the business up for the agent (until then its other operations answer 409 with reason ' +
        'not_migrated); the family must be on (set_feature_family). The answer says whether a model provider is configured.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      feature: FEATURE,
      featureSetup: true,
      access: { kinds: ['client_admin'], scopes: ['agent:use'] },
      rest: { method: 'PUT', path: '/v1/client/agent/settings' },
      graphql: 'setAgentSettings',
      input: z.object({
        instructions: z
          .string()
          .trim()
          .max(2000)
          .nullable()
          .describe('Added to the system prompt (how the business names things, what to stress); null: none'),
      }),
      output: z.object({
        result: z.literal(true),
        instructions: z.string().nullable(),
        provider_configured: z
          .boolean()
          .describe('Whether AGENT_PROVIDER is set: without it turns answer 503'),
        daily_cap: z.int().describe('Turns the business may run a local day'),
      }),
      handler: (ctx, input) => agent.saveSettings(ctx, input),
    }),
    defineOperation({
      name: 'create_agent_conversation',
      summary: 'Open a conversation with the operations AI agent',
      description:
        'A conversation is its person’s own: nobody else lists or reads it. Send turns to it with send_agent_turn.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      feature: FEATURE,
      access: USERS,
      rest: { method: 'POST', path: '/v1/agent/conversations' },
      graphql: 'createAgentConversation',
      input: z.object({ title: z.string().trim().min(1).max(200).optional() }),
      output: z.object({ result: z.literal(true), conversation: conversationSchema }),
      handler: (ctx, input) => agent.createConversation(ctx, input),
    }),
    defineOperation({
      name: 'list_agent_conversations',
      summary: 'My conversations with the operations AI agent, most recent first',
      description:
        "The caller's own conversations, paged; read one with its turns through get_agent_conversation.",
      tag: TAG,
      kind: 'query',
      risk: 'low',
      feature: FEATURE,
      access: USERS,
      rest: { method: 'GET', path: '/v1/agent/conversations' },
      graphql: 'agentConversations',
      input: z.object({ ...pageParams }),
      output: z.object({
        result: z.literal(true),
        ...pageEnvelope,
        conversations: z.array(conversationSchema),
      }),
      handler: (ctx, input) => agent.conversations(ctx, input),
    }),
    defineOperation({
      name: 'get_agent_conversation',
      summary: 'One of my agent conversations with its turns, oldest first (paged)',
      description:
        'Each turn with its text, answer, tool calls (name, arguments, summary), the proposals it queued (as the approval queue shows them now), model, usage and duration. Another person’s conversation is 404.',
      tag: TAG,
      kind: 'query',
      risk: 'low',
      feature: FEATURE,
      access: USERS,
      errors: ['AGENT_CONVERSATION_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/agent/conversations/:conversation_id' },
      graphql: 'agentConversation',
      input: z.object({ ...conversationParam, ...pageParams }),
      output: z.object({
        result: z.literal(true),
        conversation: conversationSchema,
        ...pageEnvelope,
        turns: z.array(turnSchema),
      }),
      handler: (ctx, input) => agent.conversation(ctx, input.conversation_id, input),
    }),
    defineOperation({
      name: 'send_agent_turn',
      summary: 'Ask the operations AI agent: it reads with your read tools and proposes writes for approval',
      description:
        `The model gets the system prompt, the conversation's last ${HISTORY_TURNS} turns (text and answer), this text, ` +
        `the read tools the caller's token may call and propose_write; it may make up to ${MAX_TOOL_CALLS} tool calls, each run as the caller. ` +
        'Writes are only proposed (approval queue). Counted against the daily turn cap (429 DAILY_CAP_REACHED past it); ' +
        'without a provider 503 AGENT_PROVIDER_NOT_CONFIGURED; a provider error or timeout 502/504, and nothing is kept.',
      tag: TAG,
      kind: 'mutation',
      risk: 'low',
      writes: 'stepwise',
      feature: FEATURE,
      access: USERS,
      errors: [
        'AGENT_CONVERSATION_NOT_FOUND',
        'AGENT_PROVIDER_NOT_CONFIGURED',
        'AGENT_PROVIDER_FAILED',
        'AGENT_PROVIDER_TIMEOUT',
        'DAILY_CAP_REACHED',
      ],
      rest: { method: 'POST', path: '/v1/agent/conversations/:conversation_id/turns' },
      graphql: 'sendAgentTurn',
      input: z.object({ ...conversationParam, text: z.string().trim().min(1).max(MAX_TURN_TEXT) }),
      output: z.object({ result: z.literal(true), turn: turnSchema }),
      handler: (ctx, input) => agent.turn(ctx, input.conversation_id, input.text),
    }),
    defineOperation({
      name: 'get_agent_usage',
      summary: "The business's agent turns, tokens and time per local day",
      description: `Days with turns between from and to (inclusive, at most ${MAX_USAGE_DAYS} days; default the last 30 days), with the daily cap and today's count.`,
      tag: TAG,
      kind: 'query',
      risk: 'low',
      feature: FEATURE,
      access: STAFF_USERS,
      rest: { method: 'GET', path: '/v1/agent/usage' },
      graphql: 'agentUsage',
      input: z.object({ from: calendarDate.optional(), to: calendarDate.optional() }),
      output: z.object({
        result: z.literal(true),
        from: z.string(),
        to: z.string(),
        daily_cap: z.int(),
        turns_today: z.int().describe("Turns counted on the business's current local day"),
        days: z.array(
          z.object({
            date: z.string(),
            turns: z.int(),
            input_tokens: z.int(),
            output_tokens: z.int(),
            duration_ms: z.int(),
          }),
        ),
      }),
      handler: (ctx, input) => agent.usage(ctx, input),
    }),
    defineOperation({
      name: 'set_agent_daily_cap',
      summary: "Set one business's daily cap of agent turns, or return it to the platform default",
      description:
        'Platform admins: daily_turns is the turns the business may run a local day (0 stops its turns); null returns it to AGENT_DAILY_TURNS.',
      tag: 'Platform',
      kind: 'mutation',
      risk: 'medium',
      access: { kinds: ['platform_admin'], scopes: ['platform:write'] },
      errors: ['BUSINESS_NOT_FOUND'],
      rest: { method: 'PUT', path: '/v1/platform/businesses/:business_id/agent-cap' },
      graphql: 'setAgentDailyCap',
      input: z.object({ business_id: idParam, daily_turns: z.int().min(0).max(1_000_000).nullable() }),
      output: z.object({
        result: z.literal(true),
        business_id: z.int(),
        daily_cap: z.int(),
        platform_default: z.boolean().describe('The cap is the platform default'),
      }),
      handler: (ctx, input) => agent.setCap(ctx, input.business_id, input.daily_turns),
    }),
  ];
}
