/**
 * The entry of the solver threads (platform/workers.ts): a task names a pure function of a
 * module's solver folder and gives its input; the answer, or the error's message, goes back.
 */
import { parentPort } from 'node:worker_threads';
import { solveByDeadline } from './modules/dispatch/index.ts';
import { solveCartons, solveLoading } from './modules/packing/index.ts';

const SOLVERS: Record<string, (input: never) => unknown> = {
  cartons: solveCartons,
  loading: solveLoading,
  routes: solveByDeadline,
};

parentPort!.on('message', (task: { kind: string; input: unknown }) => {
  const solve = SOLVERS[task.kind];
  try {
    if (!solve) throw new Error(`no solver ${task.kind}`);
    parentPort!.postMessage({ result: solve(task.input as never) });
  } catch (error) {
    parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
