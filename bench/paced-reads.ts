/**
 * Two load generators for bench/imports.ts, run as child processes (fork, IPC) of it:
 *
 * - `paced`: a reader on a fixed schedule. It starts a GET every `everyMs` whether or not the
 *   earlier ones were answered, and times each from the moment it was due: a service that stalls
 *   shows its stall in full, where a closed-loop generator (autocannon) would send nothing while
 *   it waits and leave the stall out of its percentiles.
 * - `repeat`: one POST after another for `seconds` (the last one is waited for), timed each.
 */
import http from 'node:http';
import { percentile } from './support.ts';

export type PacedJob =
  | { kind: 'paced'; url: string; everyMs: number; seconds: number }
  | { kind: 'repeat'; url: string; headers: Record<string, string>; body: string; seconds: number };

export interface PacedResult {
  sent: number;
  answered: number;
  failed: number;
  p50: number;
  p99: number;
  max: number;
}

async function run(job: PacedJob): Promise<PacedResult> {
  return job.kind === 'paced' ? paced(job) : repeat(job);
}

async function paced(job: Extract<PacedJob, { kind: 'paced' }>): Promise<PacedResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const latencies: number[] = [];
  let failed = 0;
  const one = (due: number) =>
    new Promise<void>((resolve) => {
      const request = http.get(job.url, { agent }, (answer) => {
        answer.resume();
        answer.on('end', () => {
          if (answer.statusCode === 200) latencies.push(performance.now() - due);
          else failed++;
          resolve();
        });
      });
      request.on('error', () => {
        failed++;
        resolve();
      });
    });
  const started = performance.now();
  const pending: Array<Promise<void>> = [];
  for (let index = 0; index * job.everyMs < job.seconds * 1000; index++) {
    const due = started + index * job.everyMs;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(one(due));
  }
  await Promise.all(pending);
  agent.destroy();
  return summary(pending.length, latencies, failed);
}

async function repeat(job: Extract<PacedJob, { kind: 'repeat' }>): Promise<PacedResult> {
  const latencies: number[] = [];
  let failed = 0;
  const started = performance.now();
  while (performance.now() - started < job.seconds * 1000) {
    const at = performance.now();
    const answer = await fetch(job.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...job.headers },
      body: job.body,
    });
    await answer.arrayBuffer();
    if (answer.ok) latencies.push(performance.now() - at);
    else failed++;
  }
  return summary(latencies.length + failed, latencies, failed);
}

function summary(sent: number, latencies: number[], failed: number): PacedResult {
  const sorted = latencies.sort((a, b) => a - b);
  const ms = (value: number) => Math.round(value * 10) / 10;
  return {
    sent,
    answered: sorted.length,
    failed,
    p50: ms(percentile(sorted, 50)),
    p99: ms(percentile(sorted, 99)),
    max: ms(sorted.at(-1) ?? Number.NaN),
  };
}

process.on('message', (message: { job: PacedJob }) => {
  run(message.job).then(
    (result) => process.send!({ result }),
    (error: Error) => process.send!({ error: error.stack ?? String(error) }),
  );
});
