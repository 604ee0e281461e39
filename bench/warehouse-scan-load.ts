/**
 * The scanners of bench/warehouse-scan.ts, run as a child process of it (fork, IPC), as scan guns
 * are devices of their own: the service's event loop serves, and only serves, while they send
 * their scans at a fixed rate (an open loop: one every 1/rate s, whether or not the previous one
 * answered) and time each answer.
 *
 * Plain node:http with a keep-alive agent, as a scan gun holds its connection open: a scan's time
 * is the service's answer, not a heavier client's own work.
 */
import { send } from './kept-alive.ts';

export type ScanKind = 'receive' | 'sort' | 'double scan';

export interface ScanJob {
  baseUrl: string;
  token: string;
  warehouseId: number;
  date: string;
  /** The package number each kind starts at (receive: the incoming ones; sort: routed ones). */
  first: Record<ScanKind, number>;
  rate: number;
  seconds: number;
  warmup: number;
}

export interface ScanResult {
  times: Record<ScanKind, number[]>;
  health: number[];
  wrong: string[];
  elapsedSeconds: number;
}

const KINDS: ScanKind[] = ['receive', 'sort', 'double scan'];
const EXPECTED: Record<ScanKind, string> = {
  receive: 'received',
  sort: 'sorted',
  'double scan': 'already_received',
};

const packageNumber = (i: number) => `BW${String(i).padStart(9, '0')}`;

async function run(job: ScanJob): Promise<ScanResult> {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${job.token}` };
  const next = { ...job.first };
  const scan = async (kind: ScanKind): Promise<string | undefined> => {
    const n = next[kind]++;
    const [route, body] =
      kind === 'sort'
        ? ['sort', { tracking_number: packageNumber(n), date: job.date }]
        : ['receive', { tracking_numbers: [packageNumber(n)] }];
    const answer = await send(`${job.baseUrl}/api/v1/warehouse/${job.warehouseId}/${route}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    const json = JSON.parse(answer.body) as { outcome?: string; results?: Array<{ outcome: string }> };
    if (answer.status !== 200) return `${answer.status} ${answer.body.slice(0, 200)}`;
    return kind === 'sort' ? json.outcome : json.results?.[0]?.outcome;
  };

  for (let i = 0; i < job.warmup; i++) for (const kind of KINDS) await scan(kind);
  process.send!({ warmed: true });

  const scans = job.rate * job.seconds;
  const times: Record<ScanKind, number[]> = { receive: [], sort: [], 'double scan': [] };
  const wrong: string[] = [];
  const pending: Promise<void>[] = [];
  // The reference of the same run: GET /api/health ten times a second beside the scans (the machine is
  // shared, so a scan's time against the reference's is what compares across runs).
  const health: number[] = [];
  const probe = setInterval(() => {
    const sent = performance.now();
    pending.push(
      send(`${job.baseUrl}/api/health`, { method: 'GET' }).then(() => {
        health.push(performance.now() - sent);
      }),
    );
  }, 100);
  const start = performance.now();
  for (let i = 0; i < scans; i++) {
    const wait = start + (i * 1000) / job.rate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const kind = KINDS[i % KINDS.length]!;
    const sent = performance.now();
    pending.push(
      scan(kind).then((outcome) => {
        times[kind].push(performance.now() - sent);
        if (outcome !== EXPECTED[kind]) wrong.push(`${kind}: ${outcome}`);
      }),
    );
  }
  clearInterval(probe);
  await Promise.all(pending);
  return { times, health, wrong, elapsedSeconds: (performance.now() - start) / 1000 };
}

process.on('message', (job: ScanJob) => {
  run(job).then(
    (result) => process.send!({ result }),
    (error: unknown) => process.send!({ error: String(error) }),
  );
});
