/**
 * A typed client of the service, as an integration developer writes one: the REST types are
 * generated from the committed openapi.json (openapi-typescript, into api.ts) and called through
 * openapi-fetch; the GraphQL types from schema.graphql and operations.graphql (graphql-codegen,
 * into graphql.ts) and called through graphql-request. docs/integration.md shows the commands;
 * test/generated-clients.test.ts generates both, type-checks this file with `tsc --strict` and
 * runs it against a service.
 */
import { readFileSync } from 'node:fs';
import { GraphQLClient } from 'graphql-request';
import createClient from 'openapi-fetch';
import type { components, paths } from './api.ts';
import type { OrderStatus, RecentOrdersQuery, RecentOrdersQueryVariables } from './graphql.ts';

/** The contract's named types: one Order and one OrderStatus, whichever operation answers them. */
type Order = components['schemas']['Order'];
type Status = components['schemas']['OrderStatus'];

const statusesOf = (orders: Order[]): Status[] => orders.map((order) => order.status);

/** The operations graphql-codegen typed (graphql.ts), sent as they are written. */
const RECENT_ORDERS = readFileSync(new URL('./operations.graphql', import.meta.url), 'utf8');

export interface Walk {
  ordersBefore: number;
  dryRun: boolean | undefined;
  created: { id: number; trackingNumber: string };
  ordersAfter: number;
  timelineCodes: string[];
  /** The refusal's status and code: the code is typed as one of those the operation declares. */
  refusal: { status: number; code: string };
  graphqlTotal: number;
  /** The statuses of the orders listed after the creation (REST), and of those GraphQL listed. */
  statuses: { rest: Status[]; graphql: OrderStatus[] };
}

/** Signs in, lists orders, creates one (first as a dry run), reads its timeline, and meets a refusal. */
export async function walk(baseUrl: string, email: string, password: string): Promise<Walk> {
  const api = createClient<paths>({ baseUrl: `${baseUrl}/api` });

  const signedIn = await api.POST('/v1/user/login', { body: { email, password } });
  if (!signedIn.data) throw new Error(`sign-in refused: ${signedIn.error?.error_code}`);
  const headers = { authorization: `Bearer ${signedIn.data.access_token}` };

  const listed = await api.GET('/v1/client/orders', { params: { query: { per_page: 5 } }, headers });
  if (!listed.data) throw new Error(`listing refused: ${listed.error?.error_code}`);

  const order = {
    orders: [
      {
        dropoff: {
          name: 'Léa Martin',
          line1: '12 Rue de Rivoli',
          city: 'Paris',
          postal_code: '75001',
          country: 'FR',
        },
      },
    ],
  };
  const tried = await api.POST('/v1/client/orderCreate', {
    body: order,
    headers: { ...headers, 'x-dry-run': '1' },
  });
  if (!tried.data) throw new Error(`dry run refused: ${tried.error?.error_code}`);
  const made = await api.POST('/v1/client/orderCreate', { body: order, headers });
  if (!made.data) throw new Error(`creation refused: ${made.error?.error_code}`);
  const created = { id: made.data.order_id, trackingNumber: made.data.tracking_number };

  const tracked = await api.GET('/v1/tracking/{trackingNumber}', {
    params: { path: { trackingNumber: created.trackingNumber } },
  });
  if (!tracked.data) throw new Error(`tracking refused: ${tracked.error?.error_code}`);

  const missing = await api.GET('/v1/client/orders/{order_id}', {
    params: { path: { order_id: 2_000_000_000 } },
    headers,
  });
  if (!missing.error) throw new Error('an order that does not exist was found');

  const after = await api.GET('/v1/client/orders', { params: { query: { per_page: 5 } }, headers });
  if (!after.data) throw new Error(`listing refused: ${after.error?.error_code}`);

  const graphql = new GraphQLClient(`${baseUrl}/api/graphql`, { headers });
  const recent = await graphql.request<RecentOrdersQuery, RecentOrdersQueryVariables>(RECENT_ORDERS, {
    perPage: 5,
  });

  return {
    ordersBefore: listed.data.total,
    dryRun: tried.data.dry_run,
    created,
    ordersAfter: after.data.total,
    timelineCodes: tracked.data.events.map((event) => event.status_code),
    refusal: { status: missing.response.status, code: missing.error.error_code },
    graphqlTotal: recent.orders?.total ?? 0,
    statuses: {
      rest: statusesOf(after.data.orders),
      graphql: (recent.orders?.orders ?? []).map((order) => order.status),
    },
  };
}
