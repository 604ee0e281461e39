import { serverAnswers } from './probe.ts';

/** The Redis of REDIS_URL, or the local one of the development and CI machines. */
export const REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether a Redis answers there: the tests of what Redis shares are skipped, saying so, when none does. */
const { hostname, port } = new URL(REDIS);
export const redisAnswers = await serverAnswers(hostname.replace(/^\[|\]$/g, ''), Number(port || 6379));

export const NO_REDIS = `no Redis server answers at ${REDIS}: the in-memory bus's tests ran`;
