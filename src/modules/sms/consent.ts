// Double opt-in: every subscription starts pending with the evidence of its request, and only a
// reply (YES, START, ...) or the signed link makes it confirmed; STOP ends it at once. Each change
// locks the subscriber's row and appends its evidence in the caller's transaction.

import type { Selectable } from 'kysely';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import type { SmsLinkSigner } from './links.ts';
import { type QueuedSms, queueMessages } from './outbound.ts';
import type { SubscriberLanguage } from './subscriber-profile.ts';
import type { ConsentSource, SmsTables } from './tables.ts';

type Db = Queryable<SmsTables>;
export type SubscriberRow = Selectable<SmsTables['sms_subscribers']>;
export type SettingsRow = Selectable<SmsTables['sms_settings']>;

/** A pending subscriber who asks again gets one more confirmation a day at most. */
const RESEND_AFTER_MS = 24 * 3600_000;

export interface NewSubscriber {
  phone: string;
  language: string;
  time_zone: string;
  tags: string[];
  attributes: Record<string, string>;
}

/** Who asked, and from where: the request's evidence. */
export interface RequestEvidence {
  source: ConsentSource;
  requested_from: string | null;
}

/** An import row's proof that the person already agreed: the subscriber is confirmed by it. */
export interface PriorConsent {
  consent_text: string;
  consent_version: string;
  consented_at: Date;
  requested_from: string | null;
}

/** The message that confirmed or ended a subscription, as received. */
export interface InboundEvidence {
  message_text: string;
  message_id: string;
}

export type RequestOutcome = 'pending' | 'confirmed' | 'unchanged' | 'unsubscribed';

const CONFIRM: Record<SubscriberLanguage, (link: string) => string> = {
  en: (link) =>
    `Reply YES to confirm you want our texts, or confirm at ${link} . Reply STOP to stop, HELP for help.`,
  fr: (link) =>
    `Répondez OUI pour confirmer vouloir nos SMS, ou confirmez sur ${link} . STOP pour arrêter, AIDE pour de l'aide.`,
  de: (link) =>
    `Antworten Sie JA, um unsere SMS zu bestätigen, oder bestätigen Sie unter ${link} . STOPP zum Abmelden, HILFE für Hilfe.`,
  es: (link) =>
    `Responda SI para confirmar que quiere nuestros SMS, o confirme en ${link} . BAJA para darse de baja, AYUDA para ayuda.`,
  'zh-Hans': (link) => `回复"是"确认接收我们的短信，或打开 ${link} 确认。回复退订取消，回复帮助获取帮助。`,
  'zh-Hant': (link) => `回覆「是」確認接收我們的簡訊，或開啟 ${link} 確認。回覆退訂取消，回覆幫助取得協助。`,
};

const UNSUBSCRIBED: Record<SubscriberLanguage, string> = {
  en: 'You are unsubscribed and will get no more messages from us. Reply START to subscribe again.',
  fr: 'Vous êtes désinscrit et ne recevrez plus de messages de notre part. Répondez START pour vous réinscrire.',
  de: 'Sie sind abgemeldet und erhalten keine Nachrichten mehr von uns. Antworten Sie START, um sich wieder anzumelden.',
  es: 'Se ha dado de baja y no recibirá más mensajes nuestros. Responda START para volver a suscribirse.',
  'zh-Hans': '您已退订，将不再收到我们的短信。回复START可重新订阅。',
  'zh-Hant': '您已退訂，將不再收到我們的簡訊。回覆START可重新訂閱。',
};

function languageOf(subscriber: SubscriberRow): SubscriberLanguage {
  return (subscriber.language in CONFIRM ? subscriber.language : 'en') as SubscriberLanguage;
}

export class Consent {
  constructor(
    private readonly clock: Clock,
    private readonly signer: SmsLinkSigner,
    private readonly publicBaseUrl: string,
  ) {}

  /** The public address of a subscriber's confirmation link. */
  async confirmLink(db: Db, subscriber: SubscriberRow): Promise<string> {
    const signature = await this.signer.sign(db, subscriber.business_id, subscriber.id);
    return `${this.publicBaseUrl}/api/v1/sms/confirm/${subscriber.id}?signature=${signature}`;
  }

  verifyLink(db: Db, subscriber: SubscriberRow, signature: string): Promise<boolean> {
    return this.signer.verify(db, subscriber.business_id, subscriber.id, signature);
  }

  lockByPhone(db: Db, businessId: number, phone: string): Promise<SubscriberRow | undefined> {
    return db
      .selectFrom('sms_subscribers')
      .selectAll()
      .where('business_id', '=', businessId)
      .where('phone', '=', phone)
      .forUpdate()
      .executeTakeFirst();
  }

  lockById(db: Db, businessId: number, id: number): Promise<SubscriberRow | undefined> {
    return db
      .selectFrom('sms_subscribers')
      .selectAll()
      .where('business_id', '=', businessId)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
  }

  /**
   * A request to subscribe. A new number starts pending (or confirmed, with an import's prior
   * consent) and is asked to confirm. A confirmed one stays as it is; a pending one gets the new
   * request's evidence (and another confirmation, at most one a day); an unsubscribed one is made
   * pending again by a new request with its evidence, but never by an import: a list bought or
   * kept from before cannot bring back a number that said STOP.
   *
   * The confirmation to send is returned, not queued: an import queues a batch's at once.
   */
  async request(
    db: Db,
    settings: SettingsRow,
    profile: NewSubscriber,
    evidence: RequestEvidence,
    prior?: PriorConsent,
  ): Promise<{
    subscriber: SubscriberRow;
    created: boolean;
    outcome: RequestOutcome;
    confirmation: QueuedSms | null;
  }> {
    const now = this.clock.now();
    const businessId = settings.business_id;
    const created = await db
      .insertInto('sms_subscribers')
      .values({
        business_id: businessId,
        phone: profile.phone,
        status: prior ? 'confirmed' : 'pending',
        language: profile.language,
        time_zone: profile.time_zone,
        tags: profile.tags,
        attributes: profile.attributes,
        created_at: now,
        confirmed_at: prior ? prior.consented_at : null,
      })
      .onConflict((conflict) => conflict.columns(['business_id', 'phone']).doNothing())
      .returningAll()
      .executeTakeFirst();
    const subscriber = created ?? (await this.lockByPhone(db, businessId, profile.phone))!;
    if (!created && subscriber.status === 'confirmed')
      return { subscriber, created: false, outcome: 'unchanged', confirmation: null };
    if (!created && subscriber.status === 'unsubscribed' && evidence.source === 'import')
      return { subscriber, created: false, outcome: 'unsubscribed', confirmation: null };
    if (prior) {
      await this.evidence(db, subscriber, 'requested', {
        source: evidence.source,
        consent_text: prior.consent_text,
        consent_version: prior.consent_version,
        requested_from: prior.requested_from,
        at: prior.consented_at,
      });
      await this.evidence(db, subscriber, 'confirmed', {
        source: evidence.source,
        requested_from: prior.requested_from,
        at: prior.consented_at,
      });
      if (created) return { subscriber, created: true, outcome: 'confirmed', confirmation: null };
      const confirmed = await this.setStatus(db, subscriber, {
        status: 'confirmed',
        confirmed_at: prior.consented_at,
      });
      return { subscriber: confirmed, created: false, outcome: 'confirmed', confirmation: null };
    }
    await this.evidence(db, subscriber, 'requested', {
      source: evidence.source,
      consent_text: settings.consent_text,
      consent_version: settings.consent_version,
      requested_from: evidence.requested_from,
      at: now,
    });
    const pending =
      subscriber.status === 'unsubscribed'
        ? await this.setStatus(db, subscriber, { status: 'pending' })
        : subscriber;
    const confirmation =
      created || !(await this.askedLately(db, pending)) ? await this.confirmation(db, pending) : null;
    return { subscriber: pending, created: created !== undefined, outcome: 'pending', confirmation };
  }

  /**
   * `request` for many (an import's batch) with the statements of one: numbers new to the business
   * are inserted at once with their evidence; a number already known, or listed twice, takes
   * `request`'s own way after them. Results are in the order of `items`.
   */
  async requestMany(
    db: Db,
    settings: SettingsRow,
    items: Array<{ profile: NewSubscriber; evidence: RequestEvidence; prior?: PriorConsent }>,
  ): Promise<Array<Awaited<ReturnType<Consent['request']>>>> {
    if (items.length === 0) return [];
    const now = this.clock.now();
    const firstOf = new Map<string, number>();
    for (const [index, item] of items.entries())
      if (!firstOf.has(item.profile.phone)) firstOf.set(item.profile.phone, index);
    const inserted = await db
      .insertInto('sms_subscribers')
      .values(
        [...firstOf.values()].map((index) => {
          const { profile, prior } = items[index]!;
          return {
            business_id: settings.business_id,
            ...profile,
            status: prior ? ('confirmed' as const) : ('pending' as const),
            created_at: now,
            confirmed_at: prior ? prior.consented_at : null,
          };
        }),
      )
      .onConflict((conflict) => conflict.columns(['business_id', 'phone']).doNothing())
      .returningAll()
      .execute();
    const created = new Map(inserted.map((row) => [row.phone, row]));
    const evidence = [...created.values()].flatMap((subscriber) => {
      const { evidence: asked, prior } = items[firstOf.get(subscriber.phone)!]!;
      const base = {
        business_id: subscriber.business_id,
        subscriber_id: subscriber.id,
        source: asked.source,
      };
      if (!prior)
        return [
          {
            ...base,
            event: 'requested' as const,
            consent_text: settings.consent_text,
            consent_version: settings.consent_version,
            requested_from: asked.requested_from,
            at: now,
          },
        ];
      return [
        {
          ...base,
          event: 'requested' as const,
          consent_text: prior.consent_text,
          consent_version: prior.consent_version,
          requested_from: prior.requested_from,
          at: prior.consented_at,
        },
        {
          ...base,
          event: 'confirmed' as const,
          requested_from: prior.requested_from,
          at: prior.consented_at,
        },
      ];
    });
    if (evidence.length > 0) await db.insertInto('sms_consent_evidence').values(evidence).execute();
    const results: Array<Awaited<ReturnType<Consent['request']>>> = [];
    for (const [index, item] of items.entries()) {
      const subscriber = created.get(item.profile.phone);
      if (subscriber && firstOf.get(item.profile.phone) === index) {
        results.push(
          subscriber.status === 'confirmed'
            ? { subscriber, created: true, outcome: 'confirmed', confirmation: null }
            : {
                subscriber,
                created: true,
                outcome: 'pending',
                confirmation: await this.confirmation(db, subscriber),
              },
        );
      } else {
        results.push(await this.request(db, settings, item.profile, item.evidence, item.prior));
      }
    }
    return results;
  }

  /**
   * A reply or a click that confirms: a pending subscriber becomes confirmed; an unsubscribed one
   * who texts START again is confirmed by that message, its new evidence (a link, which came
   * before the STOP, does not bring it back).
   */
  async confirm(
    db: Db,
    subscriber: SubscriberRow,
    how: { source: 'keyword' | 'link'; requested_from?: string | null; message?: InboundEvidence },
  ): Promise<SubscriberRow> {
    if (subscriber.status === 'confirmed') return subscriber;
    if (subscriber.status === 'unsubscribed' && how.source !== 'keyword') return subscriber;
    const now = this.clock.now();
    await this.evidence(db, subscriber, subscriber.status === 'pending' ? 'confirmed' : 'resubscribed', {
      source: how.source,
      requested_from: how.requested_from ?? null,
      message_text: how.message?.message_text ?? null,
      message_id: how.message?.message_id ?? null,
      at: now,
    });
    return this.setStatus(db, subscriber, { status: 'confirmed', confirmed_at: now });
  }

  /**
   * STOP: unsubscribed at once, for every campaign of the business, and answered once. A second
   * STOP finds it unsubscribed already and is not answered again.
   */
  async unsubscribe(db: Db, subscriber: SubscriberRow, message: InboundEvidence): Promise<boolean> {
    if (subscriber.status === 'unsubscribed') return false;
    const now = this.clock.now();
    await this.evidence(db, subscriber, 'unsubscribed', {
      source: 'keyword',
      message_text: message.message_text,
      message_id: message.message_id,
      at: now,
    });
    const ended = await this.setStatus(db, subscriber, { status: 'unsubscribed', unsubscribed_at: now });
    await this.reply(db, ended, UNSUBSCRIBED[languageOf(ended)]);
    return true;
  }

  /** A reply to a keyword: sent even to an unsubscribed number (STOP's one confirmation, HELP). */
  async reply(db: Db, subscriber: { business_id: number; id: number | null; phone: string }, body: string) {
    await queueMessages(db, this.clock, subscriber.business_id, [
      {
        business_id: subscriber.business_id,
        subscriber_id: subscriber.id,
        kind: 'reply',
        to_phone: subscriber.phone,
        body,
      },
    ]);
  }

  private async confirmation(db: Db, subscriber: SubscriberRow): Promise<QueuedSms> {
    const link = await this.confirmLink(db, subscriber);
    return {
      business_id: subscriber.business_id,
      subscriber_id: subscriber.id,
      kind: 'confirmation',
      to_phone: subscriber.phone,
      body: CONFIRM[languageOf(subscriber)](link),
    };
  }

  private async askedLately(db: Db, subscriber: SubscriberRow): Promise<boolean> {
    const since = new Date(this.clock.now().getTime() - RESEND_AFTER_MS);
    const row = await db
      .selectFrom('sms_messages')
      .select('id')
      .where('subscriber_id', '=', subscriber.id)
      .where('kind', '=', 'confirmation')
      .where('created_at', '>', since)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  private setStatus(
    db: Db,
    subscriber: SubscriberRow,
    change: Pick<SubscriberRow, 'status'> & Partial<Pick<SubscriberRow, 'confirmed_at' | 'unsubscribed_at'>>,
  ): Promise<SubscriberRow> {
    return db
      .updateTable('sms_subscribers')
      .set(change)
      .where('id', '=', subscriber.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  private async evidence(
    db: Db,
    subscriber: SubscriberRow,
    event: 'requested' | 'confirmed' | 'unsubscribed' | 'resubscribed',
    values: {
      source: ConsentSource;
      at: Date;
      consent_text?: string | null;
      consent_version?: string | null;
      requested_from?: string | null;
      message_text?: string | null;
      message_id?: string | null;
    },
  ): Promise<void> {
    await db
      .insertInto('sms_consent_evidence')
      .values({ business_id: subscriber.business_id, subscriber_id: subscriber.id, event, ...values })
      .execute();
  }

  /** Queues the confirmations a request (or a batch of an import's) asks for. */
  async send(db: Db, businessId: number, confirmations: QueuedSms[]): Promise<void> {
    await queueMessages(db, this.clock, businessId, confirmations);
  }
}
