import net from 'node:net';

/** The local Mosquitto CI runs (tests of an external broker, MQTT_URL). */
export const MOSQUITTO = 'mqtt://127.0.0.1:1883';

/** Whether a broker answers there: the external-broker tests are skipped, saying so, when none does. */
export const mosquittoAnswers = await new Promise<boolean>((resolve) => {
  const socket = net.connect({ host: '127.0.0.1', port: 1883 });
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
