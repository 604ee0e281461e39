/**
 * A load generator run as a child process of a bench script (fork, IPC), so the service's event
 * loop serves, and only serves, while the requests arrive: it sends a given list of requests at
 * a fixed rate (an open loop: one every 1/rate s, whether or not the previous one answered),
 * times each answer, and sends a health check beside every tenth request as a yardstick.
 */
import { send } from './kept-alive.ts';

export interface PlannedRequest {
  /** What the request measures: the results are grouped by it. */
  label: string;
  method: string;
  path: string;
  token: string;
  body?: unknown;
}

export interface LoadJob {
  baseUrl: string;
  /** Sent one at a time first, not measured: warms the service's caches and JIT. */
  warmup: PlannedRequest[];
  requests: PlannedRequest[];
  rate: number;
}

export interface LoadResult {
  times: Record<string, number[]>;
  health: number[];
  /** Answers that were not 200: label, status and the start of the body. */
  wrong: string[];
  elapsedSeconds: number;
}

/** A planned request on a kept-alive connection. */
function sendPlanned(baseUrl: string, request: Omit<PlannedRequest, 'label'>) {
  return send(`${baseUrl}/api${request.path}`, {
    method: request.method,
    headers: {
      'content-type': 'application/json',
      ...(request.token ? { authorization: `Bearer ${request.token}` } : {}),
    },
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  });
}

async function run(job: LoadJob): Promise<LoadResult> {
  const times: Record<string, number[]> = {};
  const health: number[] = [];
  const wrong: string[] = [];
  const timed = async (request: PlannedRequest, into: number[] | undefined) => {
    const sent = performance.now();
    const answer = await sendPlanned(job.baseUrl, request);
    if (into) into.push(performance.now() - sent);
    if (answer.status !== 200) wrong.push(`${request.label}: ${answer.status} ${answer.body.slice(0, 200)}`);
  };
  for (const request of job.warmup) await timed(request, undefined);
  process.send!({ warmed: true });
  const started = performance.now();
  const interval = 1000 / job.rate;
  const inFlight: Array<Promise<void>> = [];
  for (const [index, request] of job.requests.entries()) {
    const due = started + index * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    times[request.label] ??= [];
    inFlight.push(timed(request, times[request.label]));
    if (index % 10 === 0)
      inFlight.push(timed({ label: 'health', method: 'GET', path: '/health', token: '' }, health));
  }
  await Promise.all(inFlight);
  return { times, health, wrong, elapsedSeconds: (performance.now() - started) / 1000 };
}

process.on('message', (job: LoadJob) => {
  run(job).then(
    (result) => process.send!({ result }, () => process.exit(0)),
    (error: unknown) => process.send!({ error: String(error) }, () => process.exit(1)),
  );
});
