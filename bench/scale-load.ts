/**
 * The load generator of bench/scale.ts, run as a child process of it (fork, IPC) so it never
 * shares an event loop with the instances it measures: `connections` closed loops, each sending
 * the mix in turn to the instances in turn (a round-robin balancer's spread), for `seconds`.
 */
import { send } from './kept-alive.ts';

export interface MixedRequest {
  label: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

export interface ScaleLoad {
  baseUrls: string[];
  token: string;
  mix: MixedRequest[];
  connections: number;
  seconds: number;
}

export interface ScaleResult {
  answered: number;
  perSecond: number;
  /** Answers by label: count and their p50 / p99 in ms. */
  byLabel: Record<string, { count: number; p50: number; p99: number }>;
  /** Answers that were not 200, and the first few of them. */
  failed: number;
  wrong: string[];
}

async function run(load: ScaleLoad): Promise<ScaleResult> {
  const times: Record<string, number[]> = {};
  const wrong: string[] = [];
  let failed = 0;
  let next = 0;
  const until = performance.now() + load.seconds * 1000;
  const started = performance.now();
  const loop = async (offset: number) => {
    for (let turn = offset; performance.now() < until; turn++) {
      const request = load.mix[turn % load.mix.length]!;
      const baseUrl = load.baseUrls[next++ % load.baseUrls.length]!;
      const sent = performance.now();
      const answer = await send(`${baseUrl}/api${request.path}`, {
        method: request.method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${load.token}` },
        body: request.body,
      });
      times[request.label] ??= [];
      times[request.label]!.push(performance.now() - sent);
      if (answer.status === 200) continue;
      failed++;
      if (wrong.length < 20) wrong.push(`${request.label}: ${answer.status} ${answer.body.slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: load.connections }, (_, n) => loop(n)));
  const elapsed = (performance.now() - started) / 1000;
  const byLabel: ScaleResult['byLabel'] = {};
  let answered = 0;
  for (const [label, values] of Object.entries(times)) {
    values.sort((a, b) => a - b);
    answered += values.length;
    const at = (p: number) => values[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)]!;
    byLabel[label] = { count: values.length, p50: at(50), p99: at(99) };
  }
  return { answered, perSecond: answered / elapsed, byLabel, failed, wrong };
}

process.on('message', (load: ScaleLoad) => {
  run(load).then(
    (result) => process.send!({ result }, () => process.exit(0)),
    (error: unknown) => process.send!({ error: String(error) }, () => process.exit(1)),
  );
});
