// The third-party delivery module (connections to delivery providers behind a port, the provider
// orders they hand over, their acceptance, and the status changes sent back): what the composition
// root may use.

import type { Operation } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import { type CredentialKeySettings, CredentialVault } from '../../platform/credential-vault.ts';
import type { OutboundRules } from '../../platform/http/outbound.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { OrdersService } from '../orders/index.ts';
import { ThirdPartyConnections } from './connections.ts';
import { ThirdPartyIntake } from './intake.ts';
import { thirdPartyOperations } from './operations.ts';
import { StatusSync } from './status-sync.ts';

export { JsonConnector, resolvePointer } from './json-connector.ts';
export type {
  ConnectionSettings,
  DeliveryProvider,
  ProviderAdapter,
  ProviderOrder,
  PullPage,
  StatusUpdate,
} from './port.ts';
export { ProviderFailed } from './port.ts';
export { STATUS_PUSH_TOPIC } from './status-sync.ts';

export interface ThirdPartySettings {
  outbound: OutboundRules;
  credentials: CredentialKeySettings;
  publicBaseUrl: string;
}

/** The module's parts, assembled. */
export class ThirdPartyService {
  readonly connections: ThirdPartyConnections;
  readonly intake: ThirdPartyIntake;
  /** Hears every local status change (orders' journal) and sends those of provider orders back. */
  readonly statusSync: StatusSync;

  constructor(clock: Clock, accounts: AccountsService, orders: OrdersService, settings: ThirdPartySettings) {
    this.connections = new ThirdPartyConnections(
      clock,
      new CredentialVault(settings.credentials),
      settings.outbound,
      settings.publicBaseUrl,
    );
    this.intake = new ThirdPartyIntake(clock, accounts, orders, this.connections);
    this.statusSync = new StatusSync(clock, this.connections);
  }

  operations(): Operation[] {
    return thirdPartyOperations(this.connections, this.intake);
  }
}
