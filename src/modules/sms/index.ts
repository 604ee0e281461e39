// The SMS marketing module (subscribers with double opt-in evidence, unsubscribe keywords,
// segments, campaigns under frequency caps and quiet hours, offer codes, providers behind a port):
// what the composition root may use.

import type { Operation } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import { type CredentialKeySettings, CredentialVault } from '../../platform/credential-vault.ts';
import type { Queryable } from '../../platform/db/database.ts';
import type { OutboundRules } from '../../platform/http/outbound.ts';
import type { OutboxHandler } from '../../platform/outbox/outbox.ts';
import { campaignOperations } from './campaign-operations.ts';
import { SmsCampaigns } from './campaigns.ts';
import type { OrderHistory } from './order-history.ts';
import { sendHandler } from './outbound.ts';
import type { SmsProviders } from './provider.ts';
import { segmentOperations } from './segment-operations.ts';
import { SmsSegments } from './segments.ts';
import { CampaignSending } from './sending.ts';
import { SmsSettings } from './settings.ts';
import { settingsOperations } from './settings-operations.ts';

export { TICK_TOPIC as CAMPAIGN_TICK_TOPIC } from './campaigns.ts';
export type { OrderHistory } from './order-history.ts';
export { SEND_TOPIC } from './outbound.ts';
export type { OutgoingSms, SendOutcome, SmsProvider, SmsProviders } from './provider.ts';
export { BuiltInSmsProviders } from './providers.ts';

export interface SmsModuleSettings {
  /** Outbound calls to a generic provider's URL: which addresses, how long. */
  outbound: OutboundRules;
  credentials: CredentialKeySettings;
}

export class SmsMarketingService {
  readonly settings: SmsSettings;
  readonly segments: SmsSegments;
  readonly campaigns: SmsCampaigns;
  private readonly sending: CampaignSending;

  constructor(
    private readonly clock: Clock,
    private readonly providers: SmsProviders,
    moduleSettings: SmsModuleSettings,
    orderHistory: OrderHistory,
  ) {
    this.settings = new SmsSettings(
      clock,
      new CredentialVault(moduleSettings.credentials),
      moduleSettings.outbound,
    );
    this.segments = new SmsSegments(clock, orderHistory);
    this.campaigns = new SmsCampaigns(clock, this.segments);
    this.sending = new CampaignSending(clock, this.campaigns);
  }

  operations(): Operation[] {
    return [
      ...settingsOperations(this.settings),
      ...segmentOperations(this.segments),
      ...campaignOperations(this.campaigns),
    ];
  }

  /** Hands queued messages to the business's provider (the outbox's SEND_TOPIC). */
  sendHandler(db: Queryable): OutboxHandler {
    return sendHandler(db, this.clock, this.providers, this.settings.accountOf);
  }

  /** Sends a campaign's next batch (the outbox's CAMPAIGN_TICK_TOPIC). */
  campaignTickHandler(db: Queryable): OutboxHandler {
    return this.sending.handler(db);
  }
}
