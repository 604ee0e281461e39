/**
 * The load generator of bench/tracking.ts (and bench/mcp.ts), run as a child process of it (fork, IPC) so that
 * autocannon never shares an event loop with the servers it measures. Every job, against the
 * service or against the bare Fastify ceiling alike, goes through here.
 */
import autocannon from 'autocannon';

export type LoadJob =
  /**
   * GET `prefix + number` for a random number of `numbers`; with `etags`, as a conditional GET
   * sending the number's tag in If-None-Match, where a 304 is the expected answer.
   */
  | {
      kind: 'get';
      url: string;
      prefix: string;
      numbers: string[];
      connections: number;
      seconds: number;
      etags?: Record<string, string>;
      /** Sent with every request (an Authorization header, ...). */
      headers?: Record<string, string>;
      /** Requests a second over all connections (autocannon's overallRate); as fast as possible without. */
      rate?: number;
    }
  /** POST `{ tracking_numbers: [size random numbers] }`. */
  | {
      kind: 'batch';
      url: string;
      path: string;
      numbers: string[];
      size: number;
      connections: number;
      seconds: number;
    }
  /** POST the same body again and again (a JSON-RPC call, ...), for `seconds`. */
  | {
      kind: 'post';
      url: string;
      path: string;
      headers: Record<string, string>;
      body: string;
      connections: number;
      seconds: number;
    }
  /** POST each of `bodies` once, in order, over `connections` connections. */
  | {
      kind: 'bodies';
      url: string;
      path: string;
      headers: Record<string, string>;
      bodies: string[];
      connections: number;
    };

export interface LoadResult {
  /** Answers by status class (2xx, 4xx, ...) and 429s alone. */
  statuses?: { '2xx': number; '4xx': number; '429': number; '5xx': number };
  /** Requests answered 2xx. */
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Mean bytes received per answer (body and headers). */
  meanBytes: number;
}

async function run(job: LoadJob): Promise<LoadResult> {
  const pick = (numbers: string[]) => numbers[Math.floor(Math.random() * numbers.length)]!;
  const json = { 'content-type': 'application/json' };
  let started = 0;
  let lastAnswer = 0;
  let options: autocannon.Options;
  if (job.kind === 'get') {
    options = {
      url: job.url,
      connections: job.connections,
      duration: job.seconds,
      ...(job.rate ? { overallRate: job.rate } : {}),
      requests: [
        {
          method: 'GET',
          setupRequest: (request) => {
            const number = pick(job.numbers);
            const etag = job.etags?.[number];
            return {
              ...request,
              path: job.prefix + number,
              headers: { ...request.headers, ...job.headers, ...(etag ? { 'if-none-match': etag } : {}) },
            };
          },
        },
      ],
    };
  } else if (job.kind === 'batch') {
    options = {
      url: job.url,
      connections: job.connections,
      duration: job.seconds,
      requests: [
        {
          method: 'POST',
          path: job.path,
          headers: json,
          setupRequest: (request) => ({
            ...request,
            body: JSON.stringify({
              tracking_numbers: Array.from({ length: job.size }, () => pick(job.numbers)),
            }),
          }),
        },
      ],
    };
  } else if (job.kind === 'post') {
    options = {
      url: job.url,
      connections: job.connections,
      duration: job.seconds,
      requests: [{ method: 'POST', path: job.path, headers: { ...json, ...job.headers }, body: job.body }],
    };
  } else {
    let next = 0;
    // autocannon ends an `amount` run on its next 1 s tick: time the answers instead.
    const onResponse = () => {
      lastAnswer = performance.now();
    };
    options = {
      url: job.url,
      connections: job.connections,
      amount: job.bodies.length,
      timeout: 120,
      requests: [
        {
          method: 'POST',
          path: job.path,
          headers: { ...json, ...job.headers },
          setupRequest: (request) => ({ ...request, body: job.bodies[next++ % job.bodies.length] }),
          onResponse,
        },
      ],
    };
  }
  started = performance.now();
  const result = await autocannon(options);
  // A conditional GET succeeds with 304 Not Modified, and only so: a 200 means the tag missed.
  const conditional = job.kind === 'get' && job.etags !== undefined;
  const ok = conditional ? result['3xx'] : result['2xx'];
  const seconds = job.kind === 'bodies' ? (lastAnswer - started) / 1000 : result.duration;
  return {
    statuses: {
      '2xx': result['2xx'],
      '4xx': result['4xx'],
      '429': result.statusCodeStats?.['429']?.count ?? 0,
      '5xx': result['5xx'],
    },
    ok,
    non2xx: conditional ? result.non2xx - result['3xx'] + result['2xx'] : result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    seconds,
    perSecond: ok / seconds,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    meanBytes: result.throughput.total / Math.max(1, result.requests.total),
  };
}

process.on('message', (message: { id: number; job: LoadJob }) => {
  run(message.job).then(
    (result) => process.send!({ id: message.id, result }),
    (error: Error) => process.send!({ id: message.id, error: error.stack ?? String(error) }),
  );
});
