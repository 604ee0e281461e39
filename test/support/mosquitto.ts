import { serverAnswers } from './probe.ts';

/** The local Mosquitto CI runs (tests of an external broker, MQTT_URL). */
export const MOSQUITTO = 'mqtt://127.0.0.1:1883';

/** Whether a broker answers there: the external-broker tests are skipped, saying so, when none does. */
export const mosquittoAnswers = await serverAnswers('127.0.0.1', 1883);
