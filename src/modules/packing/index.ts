// The packing module (the packaging catalog, packing plans, loading spaces and load plans, and
// their pure solvers): what the composition root may use.

export { LoadPlans } from './load-plans.ts';
export { loadingOperations } from './loading-operations.ts';
export { packingOperations } from './operations.ts';
export { PackagingCatalog } from './packaging.ts';
export { PackingPlans, type Solvers } from './packing-plans.ts';
export * from './solver/cartons/index.ts';
export * from './solver/loading/index.ts';
