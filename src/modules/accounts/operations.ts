import { z } from 'zod';
import { ACCOUNT_KINDS, defineOperation, type Operation } from '../../platform/catalog/operation.ts';
import { type AccountsService, BUSINESS_MODULES } from './service.ts';

export const localDateTime = z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

export function accountsOperations(accounts: AccountsService): Operation[] {
  return [
    defineOperation({
      name: 'login',
      summary: 'Sign in with email and password',
      description:
        'Exchanges an email and password for an opaque bearer token. `expires_at` is the local time of the ' +
        "account's business (UTC for platform admins and contractors). Attempts are rate-limited per address " +
        'and per email; a 429 carries Retry-After.',
      tag: 'User',
      kind: 'mutation',
      risk: 'low',
      access: { public: true },
      errors: ['INVALID_CREDENTIALS', 'ACCOUNT_DISABLED', 'ACCOUNT_PENDING_APPROVAL', 'RATE_LIMITED'],
      rest: { method: 'POST', path: '/v1/user/login' },
      graphql: 'userLogin',
      input: z.object({
        email: z.string().trim().max(254).pipe(z.email()),
        password: z.string().min(1).max(1024),
      }),
      output: z.object({
        result: z.literal(true),
        access_token: z.string(),
        token_type: z.literal('Bearer'),
        expires_at: localDateTime,
        expires_timestamp: z.int(),
      }),
      handler: (ctx, input) => accounts.login(ctx, input),
    }),
    defineOperation({
      name: 'logout',
      summary: 'Revoke the access token of this request',
      description:
        'Ends the session of the token that sends it: that token is refused from then on, other tokens of the account keep working. Needs no scope, so even the narrowest token can end itself.',
      tag: 'User',
      kind: 'mutation',
      risk: 'low',
      access: { kinds: 'any', ownSession: true },
      rest: { method: 'POST', path: '/v1/user/logout' },
      graphql: 'userLogout',
      input: z.object({}),
      output: z.object({ result: z.literal(true) }),
      handler: (ctx) => accounts.logout(ctx),
    }),
    defineOperation({
      name: 'get_me',
      summary: 'The signed-in account, its business and its token',
      description:
        "Who a token speaks for: the account and its kind, its business (or a contractor's company and the businesses it works for), and the token's kind, profile, scopes and expiry. Call it first to check a token before other calls.",
      tag: 'User',
      kind: 'query',
      risk: 'low',
      access: { kinds: 'any' },
      rest: { method: 'GET', path: '/v1/user/me' },
      graphql: 'me',
      input: z.object({}),
      output: z.object({
        result: z.literal(true),
        user: z.object({ id: z.int(), name: z.string(), email: z.string(), kind: z.enum(ACCOUNT_KINDS) }),
        business: z
          .object({
            id: z.int(),
            code: z.string(),
            name: z.string(),
            time_zone: z.string(),
            modules: z.record(z.enum(BUSINESS_MODULES), z.boolean()),
          })
          .nullable(),
        contractor_company: z
          .object({
            id: z.int(),
            name: z.string(),
            businesses: z.array(z.object({ id: z.int(), code: z.string(), name: z.string() })),
          })
          .nullable(),
        token: z.object({
          kind: z.enum(['login', 'personal', 'agent', 'app']),
          client_id: z.int().nullable().describe('App sessions: the only business the token acts in'),
          profile: z.string().nullable(),
          scopes: z.array(z.string()).describe('Granted scopes; ["*"] for every scope'),
          expires_timestamp: z.int(),
        }),
      }),
      handler: (ctx) => accounts.me(ctx),
    }),
  ];
}
