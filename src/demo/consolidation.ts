import type { OperationContext } from '../platform/catalog/operation.ts';
import type { Services } from '../services.ts';

/** The carrier (AfterShip's slug) and number of the demo customer's announced parcel. */
export const DEMO_INBOUND = { carrier: 'usps', tracking_number: '9400111899223197428490' };

/**
 * Package forwarding in the demo: the customer's suite at the Paris warehouse, 7 free storage days
 * then 0.50 EUR a day, a webhook secret for the tracking pushes (shown once, in the demo's
 * credentials), and one parcel the customer announced from a US shop.
 */
export async function seedDemoConsolidation(
  services: Services,
  as: { admin: OperationContext; customer: OperationContext; customerId: number },
) {
  const { forwarding } = services.consolidation;
  const { webhook_secret } = await forwarding.configure(as.admin, {
    free_storage_days: 7,
    storage_fee_per_day: 0.5,
    currency: 'EUR',
    generate_webhook_secret: true,
  });
  const paris = (await forwarding.warehouseList(as.admin)).find((w) => w.code === 'PAR-BERCY')!;
  const { suite } = await forwarding.assignSuite(as.admin, {
    customer_id: as.customerId,
    warehouse_id: paris.id,
  });
  const { parcel } = await forwarding.announce(as.customer, {
    ...DEMO_INBOUND,
    items: [
      {
        description: 'Running shoes',
        quantity: 1,
        value: 89.99,
        currency: 'USD',
        hs_code: '640411',
        origin_country: 'VN',
      },
      {
        description: 'Cotton T-shirts',
        quantity: 3,
        value: 45,
        currency: 'USD',
        hs_code: '6109100010',
        origin_country: 'US',
      },
    ],
  });
  return {
    business_id: as.admin.business!,
    suite: suite.code,
    parcel: parcel.reference,
    secret: webhook_secret!,
  };
}
