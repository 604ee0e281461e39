import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadJob, LoadResult } from './tracking-load.ts';

/**
 * The load generator (bench/tracking-load.ts, autocannon) in a child process, so that it never
 * shares an event loop with the servers it measures; `load` runs one job there.
 */
export function startLoader(): { process: ChildProcess; load(job: LoadJob): Promise<LoadResult> } {
  const child = fork(fileURLToPath(new URL('./tracking-load.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    serialization: 'advanced',
  });
  let nextJob = 0;
  return {
    process: child,
    load(job) {
      const id = nextJob++;
      return new Promise((resolve, reject) => {
        const listen = (message: { id: number; result?: LoadResult; error?: string }) => {
          if (message.id !== id) return;
          child.off('message', listen);
          if (message.error) reject(new Error(message.error));
          else resolve(message.result!);
        };
        child.on('message', listen);
        child.send({ id, job });
      });
    },
  };
}
