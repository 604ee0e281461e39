// Messages in and delivery reports from the business's provider. Nothing is read before its
// signature is checked with the business's provider secret: a forged call is refused (401) and
// changes nothing. A message is taken once by its provider id; its keyword acts at once.

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { validationFailed } from '../../platform/catalog/executor.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { Consent } from './consent.ts';
import { applyReport, keepEarlyReport, lockProviderMessage } from './delivery-reports.ts';
import { keywordOf } from './keywords.ts';
import type { ProviderAccount } from './provider.ts';
import type { SmsSettings } from './settings.ts';
import { normalisePhone } from './subscriber-profile.ts';
import type { ProviderKind, SmsTables } from './tables.ts';

type Db = Queryable<SmsTables>;
type SignedKind = 'twilio' | 'generic';

export interface InboundMessage {
  id: string;
  from: string;
  text: string;
  received_at: Date;
}

/** What a delivery report says, in the service's words: anything else (queued, sent) changes nothing. */
const FINAL_STATES: Readonly<Record<string, 'delivered' | 'failed'>> = {
  delivered: 'delivered',
  undelivered: 'failed',
  failed: 'failed',
};

/** Twilio wants TwiML back; replies go through the outbox, so the answer asks nothing of it. */
export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

/** Each provider's payloads, read once their signature holds. */
const twilioMessage = z.object({
  MessageSid: z.string().min(1).max(200),
  From: z.string().min(1).max(40),
  Body: z.string().max(2000).default(''),
});
const twilioReport = z.object({
  MessageSid: z.string().min(1).max(200),
  MessageStatus: z.string().min(1).max(40),
  ErrorCode: z.string().max(40).optional(),
});
const genericMessage = z.object({
  id: z.string().min(1).max(200),
  from: z.string().min(3).max(40),
  to: z.string().max(40).optional(),
  text: z.string().max(2000),
  received_at: z.iso.datetime({ offset: true }).optional(),
});
const genericReport = z.object({
  message_id: z.string().min(1).max(200),
  status: z.string().min(1).max(40),
  error: z.string().max(500).optional(),
});

function parsed<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw validationFailed(result.error);
  return result.data;
}

/** A signed call as the provider made it: its business, its raw body and its signature header. */
export interface SignedCall {
  business_id: number;
  body: Buffer;
  signature?: string | undefined;
}

function unverified(): AppError {
  return new AppError('SMS_WEBHOOK_UNVERIFIED');
}

/** The generic provider's X-Signature: hex HMAC-SHA256 of the raw body with the business's secret. */
export function genericSignature(secret: string, body: Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

export class SmsInbound {
  constructor(
    private readonly clock: Clock,
    private readonly settings: SmsSettings,
    private readonly consent: Consent,
    private readonly publicBaseUrl: string,
  ) {}

  /** The address Twilio is given for a business's endpoint, and signs. */
  twilioUrl(businessId: number, endpoint: 'inbound' | 'status'): string {
    return `${this.publicBaseUrl}/api/v1/sms/${endpoint}/${businessId}/twilio`;
  }

  /** A message in from Twilio's messaging webhook. */
  async fromTwilio(db: Db, call: SignedCall) {
    const form = await this.verifiedTwilioForm(db, call.business_id, 'inbound', call.body, call.signature);
    const message = parsed(twilioMessage, form);
    const now = this.clock.now();
    await this.receive(db, call.business_id, 'twilio', {
      id: message.MessageSid,
      from: message.From,
      text: message.Body,
      received_at: now,
    });
  }

  /** A message in from the generic provider. */
  async fromGeneric(db: Db, call: SignedCall) {
    const message = parsed(
      genericMessage,
      await this.verifiedGenericJson(db, call.business_id, call.body, call.signature),
    );
    return this.receive(db, call.business_id, 'generic', {
      id: message.id,
      from: message.from,
      text: message.text,
      received_at: message.received_at ? new Date(message.received_at) : this.clock.now(),
    });
  }

  /**
   * A message played in for a business that sends through the log provider, which has no phone
   * network to bring one (`tms sms receive`, an operator's command, docs/demo.md): taken as a
   * provider's would be, its keyword acting the same way, its reply written to the service's log.
   * A business on another provider is refused: its messages come from that provider, signed. Run
   * it in a transaction, as the doors run the signed ones.
   */
  async fromLogProvider(db: Db, businessId: number, message: { from: string; text: string }) {
    const settings = await this.settings.of(db, businessId);
    if (!settings) throw new Error('SMS marketing is not set up for this business (set_sms_settings).');
    if (settings.provider !== 'log')
      throw new Error(
        `This business sends through ${settings.provider}: its messages come in from that provider, signed (docs/sms-marketing.md).`,
      );
    const now = this.clock.now();
    const id = `log-in-${now.getTime().toString(36)}-${randomBytes(4).toString('hex')}`;
    const taken = await this.receive(db, businessId, 'log', { id, ...message, received_at: now });
    const phone = normalisePhone(message.from, settings.default_region)?.e164 ?? message.from;
    const subscriber = await db
      .selectFrom('sms_subscribers')
      .select(['id', 'status'])
      .where('business_id', '=', businessId)
      .where('phone', '=', phone)
      .executeTakeFirst();
    return { ...taken, id, phone, subscriber: subscriber ?? null };
  }

  /** Twilio's status callback. */
  async reportFromTwilio(db: Db, call: SignedCall) {
    const form = await this.verifiedTwilioForm(db, call.business_id, 'status', call.body, call.signature);
    const report = parsed(twilioReport, form);
    const error = report.ErrorCode && `Twilio error ${report.ErrorCode}`;
    await this.report(db, call.business_id, 'twilio', report.MessageSid, report.MessageStatus, error);
  }

  /** The generic provider's delivery report. */
  async reportFromGeneric(db: Db, call: SignedCall) {
    const report = parsed(
      genericReport,
      await this.verifiedGenericJson(db, call.business_id, call.body, call.signature),
    );
    return this.report(db, call.business_id, 'generic', report.message_id, report.status, report.error);
  }

  /** Twilio's form fields, once X-Twilio-Signature is its signature of this endpoint's URL and them. */
  private async verifiedTwilioForm(
    db: Db,
    businessId: number,
    endpoint: 'inbound' | 'status',
    body: Buffer,
    signature: string | undefined,
  ): Promise<Record<string, string>> {
    const account = await this.accountOf(db, businessId, 'twilio');
    const params = Object.fromEntries(new URLSearchParams(body.toString('utf8')));
    if (!signature) throw unverified();
    // The SDK loads at the first report through Twilio, not at every start.
    const { default: twilio } = await import('twilio');
    if (!twilio.validateRequest(account.secret!, signature, this.twilioUrl(businessId, endpoint), params))
      throw unverified();
    return params;
  }

  /** The generic provider's JSON, once X-Signature is the HMAC of its bytes. */
  private async verifiedGenericJson(
    db: Db,
    businessId: number,
    body: Buffer,
    signature: string | undefined,
  ): Promise<unknown> {
    // Broken JSON is refused as on every JSON route (it is only read: nothing is done with it yet).
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      throw new AppError('INVALID_JSON');
    }
    const account = await this.accountOf(db, businessId, 'generic');
    const expected = Buffer.from(genericSignature(account.secret!, body), 'hex');
    const given = Buffer.from(signature ?? '', 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw unverified();
    return json;
  }

  /**
   * A message in: kept once by its provider id (a retry changes nothing more), then its keyword
   * acts on the sender's subscription. STOP unsubscribes at once and is answered once; HELP is
   * answered with the business's help text; START or YES confirms a pending subscriber, or brings
   * back an unsubscribed one with this message as the new evidence. Anything else is only kept.
   */
  async receive(db: Db, businessId: number, provider: ProviderKind, message: InboundMessage) {
    const settings = (await this.settings.of(db, businessId))!;
    const from = normalisePhone(message.from, settings.default_region)?.e164 ?? message.from;
    const keyword = keywordOf(message.text);
    const stored = await db
      .insertInto('sms_inbound')
      .values({
        business_id: businessId,
        from_phone: from,
        body: message.text,
        provider,
        provider_message_id: message.id,
        keyword,
        received_at: message.received_at,
      })
      .onConflict((conflict) =>
        conflict.columns(['business_id', 'provider', 'provider_message_id']).doNothing(),
      )
      .returning('id')
      .executeTakeFirst();
    if (!stored) return { result: true as const, duplicate: true, keyword };
    const subscriber = await this.consent.lockByPhone(db, businessId, from);
    const evidence = { message_text: message.text, message_id: message.id };
    if (keyword === 'help') {
      await this.consent.reply(
        db,
        { business_id: businessId, id: subscriber?.id ?? null, phone: from },
        settings.help_text,
      );
    } else if (keyword === 'stop' && subscriber) {
      await this.consent.unsubscribe(db, subscriber, evidence);
    } else if (keyword === 'start' && subscriber) {
      await this.consent.confirm(db, subscriber, { source: 'keyword', message: evidence });
    }
    return { result: true as const, duplicate: false, keyword };
  }

  /**
   * A delivery report: the message (found by its provider's id, in this business) becomes
   * delivered or failed, and so does its campaign recipient. A delivered message stays delivered.
   */
  async report(
    db: Db,
    businessId: number,
    provider: SignedKind,
    providerMessageId: string,
    status: string,
    error?: string,
  ) {
    const state = FINAL_STATES[status.toLowerCase()];
    if (!state) return { result: true as const, updated: false };
    const now = this.clock.now();
    const report = { businessId, provider, providerMessageId, state, error };
    await lockProviderMessage(db, report);
    const outcome = await applyReport(db, report, now);
    // The provider reported before its answer to the send was recorded: kept for that answer.
    if (outcome === 'unknown') await keepEarlyReport(db, report, now);
    return { result: true as const, updated: outcome === 'updated' };
  }

  /** The business's account with this provider and its secret; any other case cannot be verified. */
  private async accountOf(db: Db, businessId: number, kind: SignedKind): Promise<ProviderAccount> {
    const account = await this.settings.accountOf(db, businessId);
    if (!account || account.kind !== kind || !account.secret) throw unverified();
    return account;
  }
}
