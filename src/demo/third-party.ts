/**
 * A stand-in third-party delivery provider: a real HTTP server speaking the generic JSON
 * connector's protocol (docs/third-party.md), with orders in a provider's own shape. The tests
 * pull from it and `tms third-party stand-in` runs it; the demo's connection reads the same shape.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OperationContext } from '../platform/catalog/operation.ts';
import type { Services } from '../services.ts';

/** An order as the stand-in provider writes it: nothing like ours, hence the mapping. */
export interface StandInOrder {
  ref: string;
  /** ISO 8601: accept or reject before this. */
  respond_by: string;
  customer: { name: string; phone?: string };
  destination: {
    street: string;
    city?: string;
    zip?: string;
    country?: string;
    geo?: { lat: number; lon: number };
  };
  slot?: { from: string; to: string };
  remarks?: string;
}

/** Where our fields are in a stand-in order. */
export const STAND_IN_MAPPING = {
  orders_pointer: '/data/orders',
  cursor_pointer: '/data/next',
  fields: {
    id: '/ref',
    accept_by: '/respond_by',
    'dropoff.name': '/customer/name',
    'dropoff.phone': '/customer/phone',
    'dropoff.line1': '/destination/street',
    'dropoff.city': '/destination/city',
    'dropoff.postal_code': '/destination/zip',
    'dropoff.country': '/destination/country',
    'dropoff.lat': '/destination/geo/lat',
    'dropoff.lng': '/destination/geo/lon',
    window_start: '/slot/from',
    window_end: '/slot/to',
    note: '/remarks',
  },
} as const;

export interface StandInCall {
  method: string;
  path: string;
  body: unknown;
}

/** What a path answers, when told to fail: a status for the next `times` calls (Infinity: until told otherwise). */
interface Failure {
  status: number;
  times: number;
}

export interface StandInProvider {
  url: string;
  /** Orders on offer, in the order a cursor walks them. */
  orders: StandInOrder[];
  /** Every call received, answered or not. */
  calls: StandInCall[];
  /** Calls of one kind ('accept', 'reject', 'status', 'pull') that were answered 2xx. */
  answered(kind: 'accept' | 'reject' | 'status' | 'pull'): StandInCall[];
  /** Makes calls of a kind (or all: '*') answer `status`, `times` times. */
  fail(kind: 'accept' | 'reject' | 'status' | 'pull' | '*', status: number, times?: number): void;
  /** Answers again as a healthy provider. */
  heal(): void;
  close(): Promise<void>;
}

const PAGE_SIZE = 20;

/** Starts the stand-in on a loopback port (0: any free one); it requires `Bearer <credential>` when given one. */
export async function startStandInProvider(
  options: { port?: number; host?: string; credential?: string } = {},
): Promise<StandInProvider> {
  const orders: StandInOrder[] = [];
  const calls: StandInCall[] = [];
  const ok: Array<StandInCall & { kind: string }> = [];
  const failures = new Map<string, Failure>();
  const kindOf = (method: string, path: string) =>
    method === 'GET' ? 'pull' : (/\/orders\/[^/]+\/(accept|reject|status)$/.exec(path)?.[1] ?? 'unknown');

  const answer = (response: ServerResponse, status: number, body: unknown) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  const server: Server = createServer((request: IncomingMessage, response) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://stand-in');
      const method = request.method ?? 'GET';
      const body = text ? safeJson(text) : null;
      const call = { method, path: url.pathname + url.search, body };
      calls.push(call);
      const kind = kindOf(method, url.pathname);
      const failure = failures.get(kind) ?? failures.get('*');
      if (failure && failure.times > 0) {
        failure.times--;
        return answer(response, failure.status, { error: 'stand-in told to fail' });
      }
      if (options.credential && request.headers.authorization !== `Bearer ${options.credential}`)
        return answer(response, 401, { error: 'bad credential' });
      if (kind === 'pull' && url.pathname === '/orders') {
        const from = Number(url.searchParams.get('cursor') ?? '0') || 0;
        const page = orders.slice(from, from + PAGE_SIZE);
        ok.push({ ...call, kind });
        return answer(response, 200, { data: { orders: page, next: String(from + page.length) } });
      }
      const ref = /^\/orders\/([^/]+)\//.exec(url.pathname)?.[1];
      const order = orders.find((one) => one.ref === decodeURIComponent(ref ?? ''));
      if (!order || kind === 'unknown') return answer(response, 404, { error: 'no such order' });
      ok.push({ ...call, kind });
      return answer(response, 200, { ok: true });
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    orders,
    calls,
    answered: (kind) => ok.filter((call) => call.kind === kind),
    fail: (kind, status, times = Number.POSITIVE_INFINITY) => failures.set(kind, { status, times }),
    heal: () => failures.clear(),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** `count` orders around central Paris (the demo business's city), due within 15 minutes. */
export function demoStandInOrders(now: Date, count = 3): StandInOrder[] {
  const respondBy = new Date(now.getTime() + 15 * 60_000).toISOString();
  const places = [
    { street: '10 Rue de Rivoli', zip: '75004', lat: 48.8556, lon: 2.3585 },
    { street: '5 Avenue Anatole France', zip: '75007', lat: 48.8584, lon: 2.2945 },
    { street: '1 Place du Tertre', zip: '75018', lat: 48.8865, lon: 2.3408 },
  ];
  return Array.from({ length: count }, (_, n) => places[n % places.length]!).map((place, n) => ({
    ref: `SI-${now.getTime().toString(36)}-${n + 1}`,
    respond_by: respondBy,
    customer: { name: `Stand-in customer ${n + 1}`, phone: '+33100000000' },
    destination: {
      street: place.street,
      city: 'Paris',
      zip: place.zip,
      country: 'FR',
      geo: { lat: place.lat, lon: place.lon },
    },
    remarks: 'Handed over by the stand-in provider',
  }));
}

/** Where `tms third-party stand-in` listens by default, and the credential it asks for. */
export const DEMO_STAND_IN_URL = 'http://127.0.0.1:4610';
export const DEMO_STAND_IN_CREDENTIAL = 'stand-in-demo-credential';

/** The demo's marketplace is played inside the service: this address is only shown, never called. */
export const DEMO_MARKETPLACE_URL = 'https://marketplace.demo.invalid';

/** An order as the demo marketplace pushes it (the stand-in's shape): inside Paris, so the rules accept it. */
export function demoPushedOrder(ref: string, respondBy: string): StandInOrder {
  return {
    ref,
    respond_by: respondBy,
    customer: { name: 'Try It' },
    destination: {
      street: '10 Rue de Rivoli',
      city: 'Paris',
      zip: '75004',
      country: 'FR',
      geo: { lat: 48.8556, lon: 2.3585 },
    },
  };
}

/**
 * The demo business's connection to its marketplace, played inside the service (the
 * `demo_marketplace` adapter: no call leaves the process, so no loopback address needs allowing):
 * orders pushed to it in the stand-in's shape, inside the Paris périphérique, are accepted as they
 * come, up to 50 a day; others wait for a dispatcher. Its push token is shown once, with the
 * demo's sign-in details.
 */
export async function seedDemoThirdParty(services: Services, admin: OperationContext) {
  const { connection, push_token } = await services.thirdParty.connections.create(
    admin,
    {
      name: 'Demo marketplace',
      adapter: 'demo_marketplace',
      base_url: DEMO_MARKETPLACE_URL,
      mapping: STAND_IN_MAPPING,
      family: 'local_delivery',
      rules: {
        area: { bbox: { min_lat: 48.815, min_lng: 2.224, max_lat: 48.902, max_lng: 2.47 } },
        daily_capacity: 50,
        otherwise: 'manual',
      },
      poll_seconds: 30,
      active: true,
    },
    { seeded: true },
  );
  return { connection_id: connection.id, push_token };
}
