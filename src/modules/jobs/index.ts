// The jobs module (operation calls run in the background, docs/jobs.md): what the composition root may use.

export { JobBoard } from './board.ts';
export { jobsOperations } from './operations.ts';
export { JobsService } from './service.ts';
