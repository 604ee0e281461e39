import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Running } from './process.ts';

/**
 * Several real `tms serve` processes on one database and one Redis, behind a round-robin proxy:
 * what an operator runs when one machine is not enough.
 */

export interface RoundRobin {
  baseUrl: string;
  /** Which instance (its index) answered each request, in order. */
  readonly answeredBy: number[];
  close(): Promise<void>;
}

/**
 * A load balancer as small as can be: each request goes to the next instance in turn; one that
 * refuses the connection (stopped) is skipped, as a balancer's health check would.
 */
export async function roundRobin(instances: Running[]): Promise<RoundRobin> {
  let next = 0;
  const answeredBy: number[] = [];
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    for (let tries = 0; tries < instances.length; tries++) {
      const at = next++ % instances.length;
      const target = instances[at]!;
      if (target.child.exitCode !== null || target.child.signalCode !== null) continue;
      try {
        await new Promise<void>((resolve, reject) => {
          const outbound = http.request(
            `${target.baseUrl}${request.url}`,
            { method: request.method, headers: { ...request.headers, host: new URL(target.baseUrl).host } },
            (answer) => {
              answeredBy.push(at);
              response.writeHead(answer.statusCode ?? 502, answer.headers);
              answer.pipe(response);
              answer.once('end', resolve);
            },
          );
          outbound.once('error', reject);
          outbound.end(body);
        });
        return;
      } catch {
        if (response.headersSent) return void response.destroy();
      }
    }
    response.writeHead(502, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { code: 'BAD_GATEWAY', message: 'No instance answered' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    answeredBy,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
