import type { Config } from './config.ts';
import { openCommandDatabase } from './running-service.ts';

/** What a terminal, a process manager or a closed session sends to stop the worker. */
const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Runs jobs (docs/jobs.md) and nothing else, no HTTP, until SIGINT, SIGTERM or SIGHUP: then it
 * stops taking jobs and lets the one in hand finish within the grace period; one that does not is
 * left to be taken up by another worker. The database is DATABASE_URL, or the embedded one of a
 * service running on TMS_DATA_DIR, as for every command.
 */
export async function work(config: Config, say: (line: string) => void): Promise<void> {
  let stop: (signal: NodeJS.Signals) => void = () => {};
  const stopped = new Promise<NodeJS.Signals>((resolve) => {
    stop = resolve;
  });
  for (const signal of STOP_SIGNALS) process.on(signal, stop);
  try {
    const database = await openCommandDatabase(config, say);
    try {
      const { createApp, JOB_STOP_GRACE_MS } = await import('./app.ts');
      const app = await createApp(config, database.db);
      try {
        await app.jobs.start();
        say(`TMS worker running jobs, ${config.jobs.concurrency} at a time`);
        const signal = await stopped;
        say(`${signal} received: finishing the job in hand`);
        await app.jobs.stop(JOB_STOP_GRACE_MS);
      } finally {
        // Closes what the service holds besides its database: the solver threads, ...
        await app.http.close();
      }
    } finally {
      await database.shutdown();
    }
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, stop);
  }
}
