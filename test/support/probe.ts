import net from 'node:net';

/**
 * Whether a server accepts connections at `host:port`: tests of what only a local server offers
 * (Redis, Mosquitto) are skipped, saying so, when none does. Generous: on a loaded machine the
 * test process may be busy loading modules meanwhile.
 */
export function serverAnswers(host: string, port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = net.connect({ host, port });
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
}
