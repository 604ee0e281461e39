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
import { Consent } from './consent.ts';
import { SmsInbound } from './inbound.ts';
import { inboundOperations } from './inbound-operations.ts';
import { SmsLinkSigner } from './links.ts';
import { offerOperations } from './offer-operations.ts';
import type { OrderHistory } from './order-history.ts';
import { sendHandler } from './outbound.ts';
import type { SmsProviders } from './provider.ts';
import { reportOperations } from './report-operations.ts';
import { SmsReports } from './reports.ts';
import { segmentOperations } from './segment-operations.ts';
import { SmsSegments } from './segments.ts';
import { CampaignSending } from './sending.ts';
import { SmsSettings } from './settings.ts';
import { settingsOperations } from './settings-operations.ts';
import { subscriberOperations } from './subscriber-operations.ts';
import { type SmsBusinessDirectory, SmsSubscribers } from './subscribers.ts';

export { TICK_TOPIC as CAMPAIGN_TICK_TOPIC } from './campaigns.ts';
export type { OrderHistory } from './order-history.ts';
export { SEND_TOPIC } from './outbound.ts';
export type { OutgoingSms, SendOutcome, SmsProvider, SmsProviders } from './provider.ts';
export { BuiltInSmsProviders } from './providers.ts';
export { type SmsStandIn, startSmsStandIn } from './stand-in.ts';
export type { SmsBusinessDirectory } from './subscribers.ts';

export interface SmsModuleSettings {
  /** Outbound calls to a generic provider's URL: which addresses, how long. */
  outbound: OutboundRules;
  credentials: CredentialKeySettings;
  /** The service's public address: confirmation links, and the webhook addresses Twilio signs. */
  publicBaseUrl: string;
  /** Requests of the public subscribe form each client address may make an hour. */
  subscribesPerAddressPerHour: number;
  businesses: SmsBusinessDirectory;
}

export class SmsMarketingService {
  readonly settings: SmsSettings;
  readonly subscribers: SmsSubscribers;
  readonly inbound: SmsInbound;
  readonly reports = new SmsReports();
  readonly segments: SmsSegments;
  readonly campaigns: SmsCampaigns;
  private readonly sending: CampaignSending;

  constructor(
    private readonly clock: Clock,
    private readonly providers: SmsProviders,
    moduleSettings: SmsModuleSettings,
    private readonly orderHistory: OrderHistory,
  ) {
    this.settings = new SmsSettings(
      clock,
      new CredentialVault(moduleSettings.credentials),
      moduleSettings.outbound,
    );
    const consent = new Consent(clock, new SmsLinkSigner(), moduleSettings.publicBaseUrl);
    this.subscribers = new SmsSubscribers(
      clock,
      this.settings,
      consent,
      moduleSettings.businesses,
      moduleSettings.subscribesPerAddressPerHour,
    );
    this.inbound = new SmsInbound(clock, this.settings, consent, moduleSettings.publicBaseUrl);
    this.segments = new SmsSegments(clock, orderHistory);
    this.campaigns = new SmsCampaigns(clock, this.segments);
    this.sending = new CampaignSending(clock, this.campaigns);
  }

  operations(): Operation[] {
    return [
      ...settingsOperations(this.settings),
      ...subscriberOperations(this.subscribers),
      ...inboundOperations(this.inbound),
      ...reportOperations(this.reports),
      ...offerOperations(this.orderHistory),
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
