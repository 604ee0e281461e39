import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { fieldMessage } from '../../platform/i18n/field-messages.ts';
import { cursorPageEnvelope, cursorPageParams } from '../../platform/pagination.ts';
import { actingBusinessParam, calendarDate, idParam as id } from '../../platform/schemas.ts';
import type { BusinessModule } from '../accounts/index.ts';
import type { AssignmentsService } from './assignments.ts';
import type { ContractorsService } from './service.ts';
import { ASSIGNMENT_STATUSES } from './tables.ts';

const ruleSchema = z.object({
  id: z.int(),
  contractor_company_id: z.int(),
  postal_prefixes: z.array(z.string()),
  valid_from: z.string(),
  valid_to: z.string().nullable(),
  note: z.string().nullable(),
});

const assignmentSchema = z.object({
  id: z.int(),
  order_id: z.int(),
  order_ref: z.string().nullable(),
  order_status_id: z.int().nullable().describe('1 NEW_ORDER, 2 HOLD, 3 PLANNED, ... (see docs/orders.md)'),
  scheduled_date: z.string().nullable(),
  route_id: z.int().nullable().describe('Null while the order is unplanned'),
  broker_id: z.int().describe('The contractor (broker employee) user id'),
  broker_name: z.string().nullable(),
  status: z.enum(ASSIGNMENT_STATUSES),
  note: z.string().nullable(),
  assigned_by: z.int().nullable(),
  assigned_at: z.string().nullable().describe('ISO 8601, UTC'),
  ended_by: z.int().nullable(),
  ended_at: z.string().nullable().describe('ISO 8601, UTC'),
  end_reason: z.string().nullable(),
});

const refusals = z
  .array(z.object({ order_id: z.int(), message: z.string() }))
  .describe('One entry per order not changed, with the reason in the caller language');

/** The module switch broker order assignments belong to (accounts' BUSINESS_MODULES). */
const ASSIGNMENT_MODULE = 'contractor_assignment' satisfies BusinessModule;

/** Most orders one assign or revoke call takes. */
const MAX_ORDERS = 100;
const orderIds = z.array(z.int().positive()).min(1).max(MAX_ORDERS);

export function contractorsOperations(
  contractors: ContractorsService,
  assignments: AssignmentsService,
): Operation[] {
  return [
    defineOperation({
      name: 'get_broker_order_assignments',
      summary: "The business's broker order assignments, newest first; a contractor sees its own only",
      description:
        'Answers 403 while the contractor assignment module is off for the business, and 503 while the platform ' +
        'does not offer it. broker_id is ignored for contractor accounts.',
      tag: 'Broker Order Assignments',
      kind: 'query',
      risk: 'low',
      access: {
        kinds: [...STAFF, 'contractor'],
        scopes: ['orders:read'],
        business: 'acting',
      },
      feature: ASSIGNMENT_MODULE,
      errors: ['BUSINESS_REQUIRED'],
      rest: { method: 'GET', path: '/v1/broker-order-assignments' },
      graphql: 'brokerOrderAssignments',
      input: z.object({
        broker_id: id.optional().describe('Only this contractor; ignored for contractor accounts'),
        status: z.enum(ASSIGNMENT_STATUSES).optional(),
        order_id: id.optional(),
        ...cursorPageParams,
        business_id: actingBusinessParam,
      }),
      output: z.object({
        result: z.literal(true),
        ...cursorPageEnvelope,
        assignments: z.array(assignmentSchema),
      }),
      handler: (ctx, input) => assignments.list(ctx, input),
    }),
    defineOperation({
      name: 'assign_orders_to_broker',
      summary: 'Hand orders exclusively to one contractor',
      description:
        'Each order on its own: refused (listed in errors) when not found in this business, not a self-delivery ' +
        'order, held by a third-party carrier, on a route, or not NEW_ORDER/HOLD. An order another contractor holds ' +
        `moves in one step (that assignment ends as revoked). Up to ${MAX_ORDERS} orders.`,
      tag: 'Broker Order Assignments',
      kind: 'mutation',
      risk: 'medium',
      access: { kinds: ['client_admin'], scopes: ['orders:write'] },
      feature: ASSIGNMENT_MODULE,
      errors: ['CONTRACTOR_NOT_FOUND'],
      rest: { method: 'POST', path: '/v1/broker-order-assignments' },
      graphql: 'assignOrdersToBroker',
      input: z.object({
        order_ids: orderIds,
        broker_id: z.int().positive(),
        note: z.string().max(500).optional(),
      }),
      output: z.object({
        result: z.boolean().describe('True when at least one order was assigned'),
        assigned: z.int(),
        skipped: z.int(),
        errors: refusals,
      }),
      handler: (ctx, input) => assignments.assign(ctx, input),
    }),
    defineOperation({
      name: 'revoke_broker_order_assignments',
      summary: 'Take orders back from their contractors',
      description:
        'Orders on a route are refused (take them off the route first), as are orders without an active assignment. ' +
        `Up to ${MAX_ORDERS} orders.`,
      tag: 'Broker Order Assignments',
      kind: 'mutation',
      risk: 'medium',
      access: { kinds: ['client_admin'], scopes: ['orders:write'] },
      feature: ASSIGNMENT_MODULE,
      rest: { method: 'POST', path: '/v1/broker-order-assignments/revoke' },
      graphql: 'revokeBrokerOrderAssignments',
      input: z.object({ order_ids: orderIds, reason: z.string().max(255).optional() }),
      output: z.object({ result: z.boolean(), revoked: z.int(), skipped: z.int(), errors: refusals }),
      handler: (ctx, input) => assignments.revoke(ctx, input),
    }),
    defineOperation({
      name: 'release_broker_order_assignment',
      summary: 'Give an assigned order back (the holding contractor)',
      description:
        "The contractor holding an order under an active assignment hands it back to the business, with an optional reason. Refused while the order is on a route, or when it is not assigned to the caller's company.",
      tag: 'Broker Order Assignments',
      kind: 'mutation',
      risk: 'medium',
      access: { kinds: ['contractor'], scopes: ['orders:write'], business: 'acting' },
      feature: ASSIGNMENT_MODULE,
      errors: ['ORDER_ON_ROUTE', 'ORDER_NOT_ASSIGNED_TO_YOU', 'BUSINESS_REQUIRED'],
      rest: { method: 'POST', path: '/v1/broker-order-assignments/release' },
      graphql: 'releaseBrokerOrderAssignment',
      input: z.object({
        order_id: z.int().positive(),
        reason: z.string().max(255).optional(),
        business_id: actingBusinessParam,
      }),
      output: z.object({ result: z.literal(true), message: z.string() }),
      handler: (ctx, input) => assignments.release(ctx, input),
    }),
    defineOperation({
      name: 'create_contractor_rule',
      summary: 'Give a contractor company a planning pool: orders by postal prefix and scheduled date',
      description:
        'The company then sees and plans the orders whose service address (pickup of a P order, drop-off ' +
        'otherwise) has a postal code starting with one of the prefixes, scheduled between valid_from and ' +
        'valid_to (open-ended when absent). A company may have several rules; its pool is their union.',
      tag: 'Contractors',
      kind: 'mutation',
      risk: 'medium',
      access: { kinds: ['client_admin'], scopes: ['routes:write'] },
      errors: ['CONTRACTOR_NOT_ENGAGED'],
      rest: { method: 'POST', path: '/v1/client/contractor-rules' },
      graphql: 'createContractorRule',
      input: z
        .object({
          contractor_company_id: id,
          postal_prefixes: z
            .array(
              z
                .string()
                .trim()
                .min(1)
                .max(12)
                .regex(/^[A-Za-z0-9 -]+$/, fieldMessage('postal_prefix')),
            )
            .min(1)
            .max(100),
          valid_from: calendarDate,
          valid_to: calendarDate.nullable().optional(),
          note: z.string().max(500).optional(),
        })
        .refine((rule) => !rule.valid_to || rule.valid_to >= rule.valid_from, {
          path: ['valid_to'],
          ...fieldMessage('not_before', { field: 'valid_from' }),
        }),
      output: z.object({ result: z.literal(true), rule: ruleSchema }),
      handler: (ctx, input) => contractors.createRule(ctx, input),
    }),
    defineOperation({
      name: 'get_contractor_rules',
      summary: "The business's contractor rules; a contractor sees its own company's",
      description:
        "The rules that make each contractor company's planning pool: postal prefixes and a date range per company. Staff see all of the business's; a contractor its own company's.",
      tag: 'Contractors',
      kind: 'query',
      risk: 'low',
      access: {
        kinds: [...STAFF, 'contractor'],
        scopes: ['routes:read'],
        business: 'acting',
      },
      errors: ['BUSINESS_REQUIRED'],
      rest: { method: 'GET', path: '/v1/client/contractor-rules' },
      graphql: 'contractorRules',
      input: z.object({
        business_id: actingBusinessParam,
        contractor_company_id: id.optional().describe('Only this company; ignored for contractor accounts'),
      }),
      output: z.object({ result: z.literal(true), rules: z.array(ruleSchema) }),
      handler: (ctx, input) => contractors.rules(ctx, input),
    }),
    defineOperation({
      name: 'delete_contractor_rule',
      summary: "Remove a contractor rule; its orders leave that company's pool",
      description:
        "The orders the rule covered leave the company's pool and view at once, unless another of its rules still covers them.",
      tag: 'Contractors',
      kind: 'mutation',
      risk: 'medium',
      access: { kinds: ['client_admin'], scopes: ['routes:write'] },
      errors: ['CONTRACTOR_RULE_NOT_FOUND'],
      rest: { method: 'DELETE', path: '/v1/client/contractor-rules/:rule_id' },
      graphql: 'deleteContractorRule',
      input: z.object({ rule_id: id }),
      output: z.object({ result: z.literal(true) }),
      handler: (ctx, input) => contractors.deleteRule(ctx, input.rule_id),
    }),
  ];
}
