/**
 * The entry of the solver threads (platform/workers.ts): a task names a pure function of a
 * module's solver folder and gives its input; the answer, or the error's message, goes back.
 */
import { parentPort } from 'node:worker_threads';
// The solver folders alone, not the modules' indexes: a thread loads only the pure code it runs.
import { solveByDeadline } from './modules/dispatch/solver/portfolio.ts';
import { solveCartons } from './modules/packing/solver/cartons/index.ts';
import { solveLoading } from './modules/packing/solver/loading/index.ts';

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
