// Starts a worker entry written in TypeScript when the service runs from its sources (tests,
// development): the thread loads TypeScript the way the main thread does. The built service
// starts its entries directly (platform/workers.ts).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
