import type { OperationContext } from '../platform/catalog/operation.ts';
import type { Services } from '../services.ts';

/** The demo's list: people who agreed on the shop's checkout, their consent kept with them. */
const DEMO_LIST = [
  { phone: '06 12 00 00 01', language: 'fr', attributes: { first_name: 'Camille' }, tags: ['paris'] },
  { phone: '06 12 00 00 02', language: 'fr', attributes: { first_name: 'Hugo' }, tags: ['paris'] },
  { phone: '06 12 00 00 03', language: 'en', attributes: { first_name: 'Emma' }, tags: ['lyon'] },
  { phone: '+49 151 23456789', language: 'de', attributes: { first_name: 'Lena' }, tags: ['lyon'] },
];

/**
 * SMS marketing on and set up with the log provider (messages are written to the service's log),
 * a small confirmed list imported with its evidence, and one campaign started: the service sends
 * it once running, each message to the log, or at 08:00 on each subscriber's clock when seeded in
 * their quiet hours (docs/sms-marketing.md).
 */
export async function seedDemoSms(services: Services, admin: OperationContext) {
  await services.accounts.setFamily(admin, 'sms_marketing', true);
  await services.sms.settings.save(admin, {
    default_region: 'FR',
    sender: 'DemoParcel',
    help_text: 'Demo Parcels: help at +33 1 00 00 00 00. Reply STOP to stop.',
    consent_text: 'I agree to receive up to 3 texts a week from Demo Parcels. Reply STOP to stop.',
    consent_version: '2026-11',
  });
  const consentedAt = new Date(admin.clock.now().getTime() - 30 * 86_400_000).toISOString();
  await services.sms.subscribers.import(
    admin,
    DEMO_LIST.map((person) => ({
      ...person,
      consent_text: 'I agree to receive up to 3 texts a week from Demo Parcels. Reply STOP to stop.',
      consent_version: '2026-11',
      consented_at: consentedAt,
      source: 'checkout',
      requested_from: 'demo shop checkout',
    })),
  );
  const { campaign } = await services.sms.campaigns.create(admin, {
    name: 'Sunday lockers',
    body: 'Hello {first_name}, our lockers are open on Sundays now. 10% off your next parcel with {offer_code}. STOP to stop',
    offer_expires_at: new Date(admin.clock.now().getTime() + 14 * 86_400_000).toISOString(),
  });
  await services.sms.campaigns.start(admin, { campaign_id: campaign.id });
  return { campaign_id: campaign.id };
}
