import { z } from 'zod';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { idParam } from '../../platform/schemas.ts';
import { ORDER_FAMILIES, orderFamilySchema } from '../orders/index.ts';
import type { PricingService } from './service.ts';

const visibility = z.object({
  result: z.literal(true),
  customer_id: z.int(),
  price_hidden_families: z
    .array(orderFamilySchema)
    .describe('Families whose prices are hidden from this customer and settled offline'),
});

export function pricingOperations(pricing: PricingService): Operation[] {
  return [
    defineOperation({
      name: 'set_customer_price_visibility',
      summary: "Hide or show a customer's prices, per order family",
      description:
        'For a family set to true, every answer to that customer omits every price field of that family ' +
        '(prices, taxes, surcharge amounts, rate prices, paid amounts) and carries price_hidden: true; online ' +
        'payment of that family answers 403 PRICE_HIDDEN_SETTLE_OFFLINE. Families not named keep their setting.',
      tag: 'Client',
      kind: 'mutation',
      risk: 'medium',
      access: { kinds: ['client_admin'], scopes: ['orders:write'], customer: 'customer_id' },
      errors: ['CUSTOMER_NOT_FOUND'],
      rest: { method: 'PUT', path: '/v1/client/customers/:customer_id/price-visibility' },
      graphql: 'setCustomerPriceVisibility',
      input: z.object({
        customer_id: idParam,
        hidden: z.partialRecord(z.enum(ORDER_FAMILIES), z.boolean()).describe('family → hide its prices'),
      }),
      output: visibility,
      handler: (ctx, input) => pricing.setVisibility(ctx, input.customer_id, input.hidden),
    }),
    defineOperation({
      name: 'get_customer_price_visibility',
      summary: "Which order families' prices a customer does not see",
      description:
        'The order families whose prices this customer account does not see; the customer settles them offline.',
      tag: 'Client',
      kind: 'query',
      risk: 'low',
      access: { kinds: STAFF, scopes: ['orders:read'], customer: 'customer_id' },
      errors: ['CUSTOMER_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/client/customers/:customer_id/price-visibility' },
      graphql: 'customerPriceVisibility',
      input: z.object({ customer_id: idParam }),
      output: visibility,
      handler: (ctx, input) => pricing.visibilityOf(ctx, input.customer_id),
    }),
    defineOperation({
      name: 'get_customer_settings',
      summary: "The signed-in customer's settings, among them the families settled offline",
      description:
        'For customer accounts: among the settings, the order families whose prices the business hides from the customer, which it settles offline.',
      tag: 'Customer',
      kind: 'query',
      risk: 'low',
      access: { kinds: ['customer'] },
      rest: { method: 'GET', path: '/v1/customer/settings' },
      graphql: 'customerSettings',
      input: z.object({}),
      output: visibility,
      handler: (ctx) => pricing.ownSettings(ctx),
    }),
  ];
}
