import {
  businessOf,
  type Caller,
  callerOf,
  type OperationContext,
} from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { ContractorPools, PoolBounds, ServiceArea } from '../orders/index.ts';
import * as repo from './repository.ts';

export interface ContractorRuleInput {
  contractor_company_id: number;
  postal_prefixes: string[];
  valid_from: string;
  valid_to?: string | null;
  note?: string;
}

/** Postal codes are compared upper case and without spaces ("sw1a 1aa" matches "SW1A"). */
function normalizePostal(code: string): string {
  return code.replaceAll(/\s+/g, '').toUpperCase();
}

/**
 * Contractor companies' rules: which of a business's orders each may see and plan (its pool),
 * by postal prefix of the service address and a range of scheduled dates.
 */
export class ContractorsService implements ContractorPools {
  constructor(
    private readonly clock: Clock,
    private readonly accounts: AccountsService,
  ) {}

  async createRule(ctx: OperationContext, input: ContractorRuleInput) {
    const businessId = businessOf(ctx);
    if (!(await this.accounts.isEngaged(ctx.db, input.contractor_company_id, businessId))) {
      throw new AppError('CONTRACTOR_NOT_ENGAGED', { params: { company: input.contractor_company_id } });
    }
    const id = await repo.insertRule(ctx.db, {
      business_id: businessId,
      contractor_company_id: input.contractor_company_id,
      postal_prefixes: [...new Set(input.postal_prefixes.map(normalizePostal))].sort(),
      valid_from: input.valid_from,
      valid_to: input.valid_to ?? null,
      note: input.note ?? null,
      created_at: this.clock.now(),
    });
    return { result: true as const, rule: (await this.viewRules(ctx.db, businessId, { ids: [id] }))[0]! };
  }

  /** The business's rules; a contractor sees only its own company's. */
  async rules(ctx: OperationContext, input: { business_id?: number; contractor_company_id?: number }) {
    const caller = callerOf(ctx);
    const businessId = businessOf(ctx);
    const companyId = caller.contractorCompanyId ?? input.contractor_company_id;
    return { result: true as const, rules: await this.viewRules(ctx.db, businessId, { companyId }) };
  }

  async deleteRule(ctx: OperationContext, ruleId: number) {
    if (!(await repo.deleteRule(ctx.db, businessOf(ctx), ruleId))) {
      throw new AppError('CONTRACTOR_RULE_NOT_FOUND', { params: { rule: ruleId } });
    }
    return { result: true as const };
  }

  /**
   * What bounds a contractor's view and pool in a business: its company's rules, and the
   * active assignments (the caller's own in reach, everyone else's out of it).
   */
  async boundsOf(db: Queryable, businessId: number, caller: Caller): Promise<PoolBounds> {
    const active = await repo.activeAssignments(db, businessId);
    const assignedToCaller = active.filter((a) => a.broker_user_id === caller.userId).map((a) => a.order_id);
    const assignedElsewhere = active.filter((a) => a.broker_user_id !== caller.userId).map((a) => a.order_id);
    const rules = await repo.rulesOf(db, businessId, { companyId: caller.contractorCompanyId! });
    const areas: ServiceArea[] = rules.map((rule) => ({
      postalPrefixes: rule.postal_prefixes,
      from: rule.valid_from,
      to: rule.valid_to,
    }));
    return { areas, assignedToCaller, assignedElsewhere };
  }

  async holdersOf(db: Queryable, businessId: number, orderIds: number[]): Promise<Map<number, number>> {
    const active = await repo.activeAssignmentsOf(db, businessId, orderIds);
    return new Map(active.map((assignment) => [assignment.order_id, assignment.broker_user_id]));
  }

  private async viewRules(db: Queryable, businessId: number, filter: { companyId?: number; ids?: number[] }) {
    return (await repo.rulesOf(db, businessId, filter)).map((rule) => ({
      id: rule.id,
      contractor_company_id: rule.contractor_company_id,
      postal_prefixes: rule.postal_prefixes,
      valid_from: rule.valid_from,
      valid_to: rule.valid_to,
      note: rule.note,
    }));
  }
}
