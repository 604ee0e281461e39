import {
  businessOf,
  callerOf,
  type Operation,
  type OperationContext,
} from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { ORDER_FAMILIES, type OrderFamily } from '../orders/index.ts';
import { hidePrices } from './policy.ts';
import * as repo from './repository.ts';

/** Price hiding: which order families' prices a business hides from which customer accounts. */
export class PricingService {
  constructor(private readonly clock: Clock) {}

  /** The families whose prices this customer of the business may not see. */
  async hiddenFamilies(db: Queryable, businessId: number, customerId: number): Promise<Set<string>> {
    return new Set(await repo.hiddenFamilies(db, businessId, customerId));
  }

  async isHidden(db: Queryable, businessId: number, customerId: number, family: string): Promise<boolean> {
    return (await this.hiddenFamilies(db, businessId, customerId)).has(family);
  }

  /** Client admins: hide or show a customer's prices, family by family (families not named stay as they are). */
  async setVisibility(
    ctx: OperationContext,
    customerId: number,
    families: Partial<Record<OrderFamily, boolean>>,
  ) {
    const businessId = businessOf(ctx);
    for (const [family, hidden] of Object.entries(families)) {
      await repo.setHidden(ctx.db, {
        business_id: businessId,
        customer_user_id: customerId,
        family,
        hidden: hidden === true,
        updated_at: this.clock.now(),
      });
    }
    return this.visibility(ctx.db, businessId, customerId);
  }

  /** The staff's view of a customer's price visibility. */
  async visibilityOf(ctx: OperationContext, customerId: number) {
    const businessId = businessOf(ctx);
    return this.visibility(ctx.db, businessId, customerId);
  }

  /** A customer's own settings: the families whose prices the business settles offline with it. */
  async ownSettings(ctx: OperationContext) {
    const caller = callerOf(ctx);
    return this.visibility(ctx.db, businessOf(ctx), caller.userId);
  }

  private async visibility(db: Queryable, businessId: number, customerId: number) {
    const hidden = await this.hiddenFamilies(db, businessId, customerId);
    return {
      result: true as const,
      customer_id: customerId,
      price_hidden_families: ORDER_FAMILIES.filter((family) => hidden.has(family)),
    };
  }

  /**
   * The executor's response policy: a customer never sees the prices of a family hidden from it,
   * and staff reading an allied business's data (acting in a business that is not theirs) see none
   * of its prices: what one business charges is not another's to see.
   */
  readonly policy = async (
    ctx: OperationContext,
    operation: Operation,
    result: unknown,
  ): Promise<unknown> => {
    const caller = ctx.caller;
    if (caller && caller.businessId !== null && ctx.business !== null && ctx.business !== caller.businessId) {
      return hidePrices(result, new Set(ORDER_FAMILIES), operation.priceFamily);
    }
    if (caller?.kind !== 'customer' || caller.businessId === null) return result;
    const hidden = await this.hiddenFamilies(ctx.db, caller.businessId, caller.userId);
    return hidePrices(result, hidden, operation.priceFamily);
  };
}
