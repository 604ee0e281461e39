import type { OutboundRules } from '../../platform/http/outbound.ts';
import { JsonConnector } from './json-connector.ts';
import type { ConnectionSettings, DeliveryProvider } from './port.ts';

/** The adapter name of the demo's marketplace; only the seed may choose it (connections.ts). */
export const DEMO_MARKETPLACE_ADAPTER = 'demo_marketplace';

/**
 * The demo's marketplace, played inside the service: no call leaves the process, so it needs no
 * loopback or private address allowed (THIRD_PARTY_ALLOW_LOOPBACK stays false) and works on a
 * plain `npm start`. It offers nothing on a pull (its orders come as pushes, in the stand-in
 * provider's shape, read through the connection's mapping) and says yes to every accept, reject
 * and status change, so the whole path of a pushed order can be tried: taken, accepted by the
 * rules or by a dispatcher, made a local order, its status changes sent back (docs/demo.md).
 */
export function demoMarketplace(settings: ConnectionSettings, rules: OutboundRules): DeliveryProvider {
  // Only its reading of pushed orders is used: the connector's calls are never made.
  const reader = new JsonConnector(settings, rules);
  return {
    pull: async (cursor) => ({ orders: [], unreadable: [], nextCursor: cursor }),
    readOrders: (orders) => reader.readOrders(orders),
    accept: async () => {},
    reject: async () => {},
    pushStatus: async () => {},
  };
}
