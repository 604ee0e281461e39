// The carton packing solver's public face, for the packing module's index.ts to re-export.
export { DEFAULT_CARTON_TIME_LIMIT_MS, solveCartons } from './solve.ts';
export type * from './types.ts';
