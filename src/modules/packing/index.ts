// The packing module: carton packing and container loading. For now its pure solvers only;
// the operations, tables and the worker that runs the solvers come next (issue 33).

export * from './solver/cartons/index.ts';
export * from './solver/loading/index.ts';
