export { DEFAULT_SUPPORT_SHARE, DEFAULT_TIME_LIMIT_MS, solveLoading } from './solve.ts';
export { chamferedCrossSection, usableVolume } from './space.ts';
export type * from './types.ts';
