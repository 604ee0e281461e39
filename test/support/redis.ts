import net from 'node:net';

/** The Redis of REDIS_URL, or the local one of the development and CI machines. */
export const REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether a Redis answers there: the tests of what Redis shares are skipped, saying so, when none does. */
export const redisAnswers = await new Promise<boolean>((resolve) => {
  const { hostname, port } = new URL(REDIS);
  const socket = net.connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port || 6379) });
  // Generous: on a loaded machine the test process may be busy loading modules meanwhile.
  socket.setTimeout(10_000);
  socket.once('connect', () => {
    socket.destroy();
    resolve(true);
  });
  socket.once('error', () => resolve(false));
  socket.once('timeout', () => {
    socket.destroy();
    resolve(false);
  });
});

export const NO_REDIS = `no Redis server answers at ${REDIS}: the in-memory bus's tests ran`;
