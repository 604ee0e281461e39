// The analytics module (order figures from a daily rollup it keeps): what the composition root and the CLI may use.
export { analyticsOperations } from './operations.ts';
export { AnalyticsRollup } from './rollup.ts';
export { AnalyticsService } from './service.ts';
