/**
 * The entry of the thread a first start seeds the demo in (demo/seeder.ts). The seed waits on
 * PostgreSQL statement after statement: on a thread of its own it never waits behind the doors'
 * assembly, which holds the main thread meanwhile (bench/README.md, "Starting the service").
 * The thread loads its code and starts its solver threads while the database is migrated.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from './config.ts';
import { seedDemo } from './demo/seed.ts';
import { systemClock } from './platform/clock.ts';
import { openDatabase } from './platform/db/database.ts';
import type { WorkerAnswer } from './platform/workers.ts';
import { createServices } from './services.ts';

const { config } = workerData as { config: Config };
const services = createServices(config, systemClock);
services.solvers.warm();

parentPort!.on('message', async (task: { kind: string; input: { url: string; password: string } }) => {
  const database = openDatabase(task.input.url, { timeouts: config.databaseTimeouts });
  let answer: WorkerAnswer;
  try {
    answer = { result: await seedDemo(database.db, services, task.input.password) };
  } catch (error) {
    answer = { error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  } finally {
    await Promise.all([database.close(), services.solvers.close(), services.labelReader.close()]);
  }
  parentPort!.postMessage(answer);
});
