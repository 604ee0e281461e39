/**
 * The port every third-party delivery provider sits behind. The generic JSON connector
 * (json-connector.ts) implements it from a URL, a credential and a field mapping; a provider with
 * an API of its own gets an adapter implementing the same interface (docs/third-party.md).
 */
import type { Address } from '../orders/index.ts';

/** An address as a provider order gives it, already in our terms: an order's address. */
export type ProviderAddress = Address;

/** A provider's order in our terms: what the local order is made of. */
export interface ProviderOrder {
  /** The provider's own id: what makes a second pull of the same order a no-op. */
  providerOrderId: string;
  /** Accept or reject before this, or the provider gives the order to someone else. */
  acceptBy: Date;
  pickup?: ProviderAddress;
  dropoff: ProviderAddress;
  /** YYYY-MM-DD */
  scheduledDate?: string;
  /** Local HH:MM, both or neither. */
  window?: { start: string; end: string };
  note?: string;
}

/** A provider order the adapter could not read (no id, no deadline, no drop-off line): skipped, and told. */
export interface UnreadableOrder {
  providerOrderId: string | null;
  problem: string;
}

export interface PullPage {
  orders: ProviderOrder[];
  unreadable: UnreadableOrder[];
  /** Where the next pull starts; null or the same cursor: nothing more for now. */
  nextCursor: string | null;
}

/** A local status change as the provider hears it: numbered per order, so it can tell the order they came in. */
export interface StatusUpdate {
  status: string;
  sequence: number;
  at: Date;
}

export interface DeliveryProvider {
  pull(cursor: string | null): Promise<PullPage>;
  accept(providerOrderId: string): Promise<void>;
  reject(providerOrderId: string, reason: string): Promise<void>;
  pushStatus(providerOrderId: string, update: StatusUpdate): Promise<void>;
  /** Orders in the provider's own shape (pushed to us), read as a pull's page reads them. */
  readOrders(orders: unknown[]): Pick<PullPage, 'orders' | 'unreadable'>;
}

/** What a connection gives its adapter. */
export interface ConnectionSettings {
  baseUrl: string;
  /** The credential in clear, unsealed for this call only; null when the provider needs none. */
  credential: string | null;
  mapping: unknown;
}

/** How a provider's adapter is made from a connection: the composition root registers one per adapter name. */
export type ProviderAdapter = (settings: ConnectionSettings) => DeliveryProvider;

/**
 * The provider did not do what was asked. `permanent`: the provider answered that it never will
 * (a 4xx other than 408/429: an order already given away, a bad credential); otherwise it may
 * later (down, slow, 5xx).
 */
export class ProviderFailed extends Error {
  override name = 'ProviderFailed';
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}
