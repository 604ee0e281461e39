import { monitorEventLoopDelay } from 'node:perf_hooks';
import mqtt, { type MqttClient } from 'mqtt';
import { send } from './kept-alive.ts';

// The phones and the dispatcher of bench/riders.ts, in a process of their own so that their work
// is not the service's: every rider goes online, holds an MQTT connection on its own topic and
// pings every PING_SECONDS (spread evenly, so RIDERS / PING_SECONDS pings a second); meanwhile
// the dispatcher creates ORDERS_PER_SECOND instant orders a second (open loop: each leaves on
// schedule whatever the earlier ones are doing). Measured after the warm-up: from an order's
// request being sent to the first `instant_offer` push of that order reaching any rider's
// subscription, and each ping's request to its answer.

export interface RidersJob {
  api: string;
  broker: string;
  topicPrefix: string;
  businessId: number;
  admin: string;
  riders: Array<{ id: number; token: string; lat: number; lng: number }>;
  /** Pickups of the orders, one after the other (wrapping). */
  pickups: Array<{ lat: number; lng: number }>;
  pingSeconds: number;
  ordersPerSecond: number;
  warmupSeconds: number;
  seconds: number;
}

export interface RidersResult {
  orders: number;
  ordersRefused: number;
  /** The error codes of the refused orders and pings, with their counts. */
  refusals: Record<string, number>;
  offered: number;
  /** Milliseconds from an order's request sent to its first offer push received, ascending. */
  firstOffer: number[];
  pings: number;
  pingsRefused: number;
  /** Milliseconds of each ping's request, ascending. */
  ping: number[];
  connections: number;
  /** The load generator's own event-loop delay while measuring, p99 in ms: its lateness, counted in the figures. */
  loopDelayP99: number;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

async function run(job: RidersJob): Promise<RidersResult> {
  const auth = (token: string) => ({ ...JSON_HEADERS, authorization: `Bearer ${token}` });
  const post = (path: string, token: string, body: unknown) =>
    send(`${job.api}${path}`, { method: 'POST', headers: auth(token), body: JSON.stringify(body) });

  // Every rider online with its position, then subscribed to its own topic.
  const firstPush = new Map<number, number>();
  const connections: MqttClient[] = [];
  for (let from = 0; from < job.riders.length; from += 50) {
    await Promise.all(
      job.riders.slice(from, from + 50).map(async (rider) => {
        const online = await post('/v1/rider/online', rider.token, {});
        if (online.status !== 200) throw new Error(`online: ${online.status} ${online.body}`);
        const client = await mqtt.connectAsync(job.broker, { username: 'rider', password: rider.token });
        client.on('message', (_topic, payload) => {
          const push = JSON.parse(payload.toString()) as { type: string; offer?: { order: { id: number } } };
          if (push.type !== 'instant_offer') return;
          const orderId = push.offer!.order.id;
          if (!firstPush.has(orderId)) firstPush.set(orderId, performance.now());
        });
        await client.subscribeAsync(`${job.topicPrefix}/drivers/${job.businessId}/${rider.id}`, { qos: 1 });
        connections.push(client);
      }),
    );
  }

  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const started = performance.now();
  const measuredFrom = started + job.warmupSeconds * 1000;
  const until = measuredFrom + job.seconds * 1000;
  const inFlight = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  };

  // The phones: rider n pings at n / RIDERS of the period, then every period; a little jitter.
  const pingTimes: number[] = [];
  let pingsRefused = 0;
  const refusals: Record<string, number> = {};
  const refused = (body: string) => {
    const code = (JSON.parse(body) as { error_code?: string }).error_code ?? 'unknown';
    refusals[code] = (refusals[code] ?? 0) + 1;
  };
  const period = job.pingSeconds * 1000;
  const timers = job.riders.map((rider, n) =>
    setTimeout(
      function ping() {
        if (performance.now() >= until) return;
        const sent = performance.now();
        const lat = rider.lat + (Math.random() - 0.5) / 5_000;
        const lng = rider.lng + (Math.random() - 0.5) / 5_000;
        track(
          post('/v1/rider/pings', rider.token, {
            pings: [{ lat, lng, accuracy_meters: 8, at: new Date().toISOString() }],
          }).then((answer) => {
            if (answer.status !== 200) {
              pingsRefused++;
              refused(answer.body);
            } else if (sent >= measuredFrom) pingTimes.push(performance.now() - sent);
          }),
        );
        timers[n] = setTimeout(ping, period);
      },
      (n * period) / job.riders.length,
    ),
  );

  // The dispatcher: instant orders on a fixed schedule.
  const sentAt = new Map<number, number>();
  let orders = 0;
  let ordersRefused = 0;
  const spacing = 1000 / job.ordersPerSecond;
  for (let n = 0; ; n++) {
    const due = started + n * spacing;
    if (due >= until) break;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const pickup = job.pickups[n % job.pickups.length]!;
    const sent = performance.now();
    track(
      post('/v1/client/orderCreate', job.admin, {
        type: 'P2P',
        instant: true,
        pickup: { line1: `${n} Rue du Départ`, ...pickup },
        dropoff: { line1: `${n} Rue de l’Arrivée`, lat: pickup.lat + 0.01, lng: pickup.lng + 0.01 },
      }).then((answer) => {
        if (answer.status !== 200) {
          ordersRefused++;
          refused(answer.body);
          return;
        }
        if (sent < measuredFrom) return;
        orders++;
        sentAt.set((JSON.parse(answer.body) as { order_id: number }).order_id, sent);
      }),
    );
  }
  while (inFlight.size > 0) await Promise.all([...inFlight]);
  loop.disable();
  for (const timer of timers) clearTimeout(timer);
  // Pushes still on their way: a moment for the last ones.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  await Promise.all(connections.map((client) => client.endAsync(true)));

  const firstOffer = [...sentAt]
    .filter(([orderId]) => firstPush.has(orderId))
    .map(([orderId, sent]) => firstPush.get(orderId)! - sent);
  return {
    orders,
    ordersRefused,
    refusals,
    offered: firstOffer.length,
    firstOffer: firstOffer.sort((a, b) => a - b),
    pings: pingTimes.length,
    pingsRefused,
    ping: pingTimes.sort((a, b) => a - b),
    connections: connections.length,
    loopDelayP99: loop.percentile(99) / 1e6,
  };
}

process.on('message', (job: RidersJob) => {
  run(job).then(
    (result) => process.send!({ result }),
    (error: Error) => process.send!({ error: error.stack ?? String(error) }),
  );
});
