import net from 'node:net';
/** What every bench script shares: its knobs, its progress lines and its percentiles. */

/** A number from the environment (`HELD=2000 node ...`), or the default. */
export const knob = (name: string, fallback: number) => {
  const value = process.env[name];
  return value === undefined || value === '' ? fallback : Number(value);
};

/** Progress goes to stderr, so stdout holds only the results (tables to paste). */
export const say = (line: string) => process.stderr.write(`${line}\n`);

/** Time since a `performance.now()`, as "12.3 s". */
export const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** The p-th percentile of ascending values (nearest rank); NaN for none. */
export const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** A loopback port nothing listens on at this moment. */
export async function freePort(): Promise<number> {
  const probe = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
