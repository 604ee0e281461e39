import type { CarrierAdapter } from './adapter.ts';
import { rateCardSchema } from './rate-card.ts';
import { RateCardCarrier } from './rate-card-carrier.ts';

/** A carrier as a business configured it. */
export interface CarrierConfig {
  code: string;
  name: string;
  kind: string;
  rate_card: unknown;
}

/**
 * How each kind of carrier is built from its configuration. A carrier reached through its own
 * API adds a kind here (reading its settings from the configuration); nothing else changes.
 */
const ADAPTER_KINDS: Record<string, (config: CarrierConfig) => CarrierAdapter> = {
  rate_card: (config) =>
    new RateCardCarrier(config.code, config.name, rateCardSchema.parse(config.rate_card)),
};

export function adapterFor(config: CarrierConfig): CarrierAdapter {
  const build = ADAPTER_KINDS[config.kind];
  if (!build) throw new Error(`No carrier adapter of kind ${config.kind}`);
  return build(config);
}
