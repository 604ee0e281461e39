import type { RequestLimitSettings } from '../src/platform/limits.ts';

/**
 * Request limits out of the way: one load generator on one address stands in for many callers,
 * and what a bench measures is the work, not the shares (bench/noisy-neighbour.ts measures those).
 */
export function withoutRequestLimits(limits: RequestLimitSettings): RequestLimitSettings {
  return {
    ...limits,
    perTokenPerMinute: 1e9,
    perBusinessPerMinute: 1e9,
    perAddressPerMinute: 1e9,
    expensiveConcurrency: 1e6,
  };
}
