import { monitorEventLoopDelay } from 'node:perf_hooks';
import { LockerSimulator } from '../src/modules/lockers/simulator.ts';
import { send } from './kept-alive.ts';
import { say, seconds } from './support.ts';

// The lockers and the people of bench/lockers.ts, in a process of their own so that their work is
// not the service's: DEVICES simulated lockers connect with their own credentials and heartbeat;
// parcels are reserved and deposited (the devices acknowledging), then RATE pickups a second are
// asked for, open loop (each leaves on schedule whatever the earlier ones are doing). Times are
// absolute (`performance.timeOrigin + performance.now()`), so the service's process can place its
// own moments (the command handed to the broker) on the same line.

export interface LockersJob {
  api: string;
  broker: string;
  topicPrefix: string;
  admin: string;
  devices: Array<{ id: number; credential: string }>;
  compartments: number;
  siteIds: number[];
  parcels: number;
  rate: number;
  warmupSeconds: number;
  connectBatch: number;
  prepConcurrency: number;
}

/** What the load generator tells the service's process, in order. */
export type LockersReport =
  | { prepared: { lostDeposits: number; connected: number; connectSeconds: number } }
  | { measuring: true }
  | { result: LockersResult }
  | { error: string };

export interface LockersResult {
  /** Each measured pickup that reached its device: the command id, when asked, when it arrived (absolute ms). */
  commands: Array<[id: string, sent: number, arrived: number]>;
  /** Milliseconds from each measured request sent to its answer. */
  answered: number[];
  failures: Record<string, number>;
  /** Answered 200 but the command did not reach its device within 15 s. */
  missing: number;
  achievedRate: number;
  /** The load generator's own event-loop delay while measuring, p99 in ms: its lateness is in the figures. */
  loopDelayP99: number;
}

const now = () => performance.timeOrigin + performance.now();
const tell = (report: LockersReport) => process.send!(report);

async function run(job: LockersJob, go: Promise<void>): Promise<LockersResult> {
  const post = async (route: string, body: unknown, token?: string) => {
    const answer = await send(job.api + route, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    // biome-ignore lint/suspicious/noExplicitAny: the bench reads a few fields of known answers
    return { status: answer.status, body: JSON.parse(answer.body) as any };
  };
  const must = async (route: string, body: unknown, token?: string) => {
    const answer = await post(route, body, token);
    if (answer.status !== 200)
      throw new Error(`POST ${route}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };

  // Every command any device receives, by id, with when: the measured end of the path.
  const arrivedAt = new Map<string, number>();
  const waiting = new Map<string, () => void>();
  const arrived = (id: string, timeoutMs: number) =>
    arrivedAt.has(id)
      ? Promise.resolve(true)
      : new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => {
            waiting.delete(id);
            resolve(false);
          }, timeoutMs);
          waiting.set(id, () => {
            clearTimeout(timer);
            resolve(true);
          });
        });

  say(`Connecting ${job.devices.length} simulated devices, ${job.connectBatch} at a time ...`);
  const simulators: LockerSimulator[] = [];
  const connecting = performance.now();
  let refused = 0;
  for (let from = 0; from < job.devices.length; from += job.connectBatch) {
    const batch = job.devices.slice(from, from + job.connectBatch).map(async (device) => {
      const simulator = new LockerSimulator({
        url: job.broker,
        deviceId: device.id,
        credential: device.credential,
        compartments: job.compartments,
        topicPrefix: job.topicPrefix,
        heartbeatMs: 30_000,
      });
      simulator.on('command', (command) => {
        arrivedAt.set(command.id, now());
        waiting.get(command.id)?.();
        waiting.delete(command.id);
      });
      try {
        await simulator.start();
        simulators.push(simulator);
      } catch (error) {
        if (++refused <= 5) say(`  device ${device.id} did not connect: ${(error as Error).message}`);
      }
    });
    await Promise.all(batch);
    const done = Math.min(from + job.connectBatch, job.devices.length);
    if (done % 250 === 0 || done === job.devices.length)
      say(`  connected: ${simulators.length} / ${done} (${seconds(connecting)})`);
  }
  const connectSeconds = (performance.now() - connecting) / 1000;

  say(
    `Preparing ${job.parcels} parcels: reserved, then deposited with the drop code (the device acknowledging) ...`,
  );
  const parcels: Array<{ reference: string; pickup: string }> = [];
  let lostDeposits = 0;
  const preparing = performance.now();
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: Math.min(job.prepConcurrency, job.parcels) }, async () => {
      while (next < job.parcels) {
        const p = next++;
        const reserved = await must(
          '/v1/lockers/bookings',
          { site_id: job.siteIds[p % job.siteIds.length] },
          job.admin,
        );
        const { reference } = reserved.booking;
        const opened = await must('/v1/lockers/open', { reference, code: reserved.codes.drop_code });
        if (!(await arrived(opened.command.id, 15_000)) && ++lostDeposits <= 5)
          say(`  the deposit command of ${reference} did not reach its device within 15 s`);
        parcels[p] = { reference, pickup: reserved.codes.pickup_code };
        if (++done % 250 === 0 || done === job.parcels)
          say(`  deposits sent: ${done} / ${job.parcels} (${seconds(preparing)})`);
      }
    }),
  );
  tell({ prepared: { lostDeposits, connected: simulators.length, connectSeconds } });
  await go;

  const commands: LockersResult['commands'] = [];
  const answered: number[] = [];
  const failures: Record<string, number> = {};
  let missing = 0;
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const pickups = async (from: number, count: number, measured: boolean) => {
    const start = performance.now();
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < count; i++) {
      const wait = start + (i * 1000) / job.rate - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const parcel = parcels[from + i]!;
      const sent = now();
      inFlight.push(
        post('/v1/lockers/open', { reference: parcel.reference, code: parcel.pickup })
          .then(async (answer) => {
            if (measured) answered.push(now() - sent);
            if (answer.status !== 200) {
              const code = `${answer.status} ${answer.body?.error_code ?? ''}`;
              if (measured) failures[code] = (failures[code] ?? 0) + 1;
              return;
            }
            const id = answer.body.command.id as string;
            if (!(await arrived(id, 15_000))) return void (measured && missing++);
            if (measured) commands.push([id, sent, arrivedAt.get(id)!]);
          })
          .catch((error: Error) => {
            if (measured) failures[error.message] = (failures[error.message] ?? 0) + 1;
          }),
      );
    }
    const last = performance.now();
    await Promise.all(inFlight);
    return (count - 1) / ((last - start) / 1000);
  };

  const warmupCount = Math.round(job.rate * job.warmupSeconds);
  if (warmupCount > 0) {
    say(`Warm-up: ${job.warmupSeconds} s at ${job.rate} pickups/s ...`);
    await pickups(0, warmupCount, false);
  }
  say(
    `Measuring: ${job.parcels - warmupCount} pickups at ${job.rate}/s over ${simulators.length} connected devices ...`,
  );
  tell({ measuring: true });
  loop.enable();
  const achievedRate = await pickups(warmupCount, job.parcels - warmupCount, true);
  loop.disable();
  for (const simulator of simulators) await simulator.stop().catch(() => {});
  return { commands, answered, failures, missing, achievedRate, loopDelayP99: loop.percentile(99) / 1e6 };
}

let started: (() => void) | undefined;
const go = new Promise<void>((resolve) => {
  started = resolve;
});
process.on('message', (message: { job?: LockersJob; go?: true }) => {
  if (message.go) return started!();
  run(message.job!, go).then(
    (result) => tell({ result }),
    (error: Error) => tell({ error: error.stack ?? String(error) }),
  );
});
