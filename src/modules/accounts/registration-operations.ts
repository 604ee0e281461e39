import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { fieldMessage } from '../../platform/i18n/field-messages.ts';
import { pageEnvelope, pageParams } from '../../platform/pagination.ts';
import { idParam } from '../../platform/schemas.ts';
import type { DriverRegistrations } from './registrations.ts';
import { REGISTRATION_STATUSES, VEHICLE_TYPES } from './tables.ts';

const ADMINS = { kinds: ['client_admin'] as const, scopes: ['drivers:write'] };

const registration = z.object({
  id: z.int(),
  user_id: z.int().describe('The driver account, switched off until approved'),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  vehicle_type: z.enum(VEHICLE_TYPES).nullable(),
  status: z.enum(REGISTRATION_STATUSES),
  created_at: z.string().describe('ISO 8601, UTC'),
  decided_by: z.int().nullable().describe('The admin who approved or rejected it'),
  decided_at: z.string().nullable(),
  reason: z.string().nullable().describe('Why it was rejected, when the admin said'),
});

const decision = z.object({
  result: z.literal(true),
  id: z.int(),
  user_id: z.int(),
  status: z.enum(['approved', 'rejected']),
  decided_at: z.string(),
});

/** Driver self-registration (public) and the business's approval queue of it. */
export function driverRegistrationOperations(registrations: DriverRegistrations): Operation[] {
  return [
    defineOperation({
      name: 'register_driver',
      summary: 'Sign up as a driver of a business, by its code; the account waits for its approval',
      description:
        'Public. The account is created switched off; sign-in answers 403 ACCOUNT_PENDING_APPROVAL until an ' +
        'admin of the business approves it. The answer is the same whether or not the email already has an ' +
        'account (then nothing is created), so the form tells strangers nothing. Limited per client address.',
      tag: 'Driver',
      kind: 'mutation',
      risk: 'low',
      access: { public: true },
      errors: ['BUSINESS_NOT_FOUND', 'RATE_LIMITED'],
      rest: { method: 'POST', path: '/v1/driver/register' },
      graphql: 'driverRegister',
      input: z.object({
        business_code: z.string().trim().min(1).max(64).describe('The code of the business to drive for'),
        name: z.string().trim().min(1).max(200),
        email: z.email().max(254),
        password: z.string().min(8).max(1024),
        phone: z
          .string()
          .trim()
          .regex(/^\+?[0-9 ().-]{5,40}$/, fieldMessage('phone_number'))
          .optional(),
        vehicle_type: z.enum(VEHICLE_TYPES).optional(),
      }),
      output: z.object({
        result: z.literal(true),
        status: z.literal('pending_approval').describe('Sign in once the business has approved the account'),
      }),
      handler: (ctx, input) => registrations.register(ctx, input),
    }),
    defineOperation({
      name: 'get_driver_registrations',
      summary: "Drivers who signed up for the caller's business, newest first",
      description:
        "The approval queue of drivers who signed up with the business's code, filtered by status (pending, approved, rejected) and paged, with who decided each one, when and why.",
      tag: 'Driver',
      kind: 'query',
      risk: 'low',
      access: { kinds: STAFF, scopes: ['drivers:read'] },
      rest: { method: 'GET', path: '/v1/client/driver-registrations' },
      graphql: 'driverRegistrations',
      input: z.object({
        status: z.enum(REGISTRATION_STATUSES).optional().describe('pending, approved or rejected'),
        ...pageParams,
      }),
      output: z.object({
        result: z.literal(true),
        ...pageEnvelope,
        registrations: z.array(registration),
      }),
      handler: (ctx, input) => registrations.list(ctx, input),
    }),
    defineOperation({
      name: 'approve_driver_registration',
      summary: 'Approve a driver who signed up: the account becomes an ordinary driver of the business',
      description:
        'Use it on a pending registration: the account is switched on and signs in from then on. Give it a working profile (set_driver_profile) before it can be planned; a registration is decided once.',
      tag: 'Driver',
      kind: 'mutation',
      risk: 'medium',
      access: ADMINS,
      errors: ['REGISTRATION_NOT_FOUND', 'REGISTRATION_ALREADY_DECIDED'],
      rest: { method: 'POST', path: '/v1/client/driver-registrations/:registration_id/approve' },
      graphql: 'approveDriverRegistration',
      input: z.object({ registration_id: idParam }),
      output: decision,
      handler: (ctx, input) => registrations.approve(ctx, input.registration_id),
    }),
    defineOperation({
      name: 'reject_driver_registration',
      summary: 'Reject a driver who signed up: the account never signs in',
      description:
        'Use it on a pending registration: the account stays switched off for good and the reason is recorded. The email stays taken; a registration is decided once.',
      tag: 'Driver',
      kind: 'mutation',
      risk: 'medium',
      access: ADMINS,
      errors: ['REGISTRATION_NOT_FOUND', 'REGISTRATION_ALREADY_DECIDED'],
      rest: { method: 'POST', path: '/v1/client/driver-registrations/:registration_id/reject' },
      graphql: 'rejectDriverRegistration',
      input: z.object({ registration_id: idParam, reason: z.string().trim().max(500).optional() }),
      output: decision,
      handler: (ctx, input) => registrations.reject(ctx, input.registration_id, input.reason),
    }),
  ];
}
