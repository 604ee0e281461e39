import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { DispatchService } from '../dispatch/index.ts';
import { type OrdersService, TERMINAL_STATUSES } from '../orders/index.ts';
import * as repo from './repository.ts';

/** A business keeps at most this many skills: a vocabulary, not a data set. */
export const CATALOGUE_LIMIT = 200;
/** A refusal to remove a skill in use names at most this many drivers and orders (and counts all). */
const USES_NAMED = 20;

/** A skill as a driver holds it or an order needs it: its label is null when the catalogue lacks the code. */
export interface HeldSkill {
  code: string;
  label: string | null;
}

/**
 * Skills: the business's catalogue (code and label), the skills each driver holds and the skills
 * each order needs. The codes live where the route solver reads them, in the driver's working
 * profile (dispatch) and in the order (orders); this module checks every code it writes there
 * against the catalogue, and keeps a skill in use from being removed.
 */
export class SkillsService {
  constructor(
    private readonly clock: Clock,
    private readonly dispatch: DispatchService,
    private readonly orders: OrdersService,
  ) {}

  async list(ctx: OperationContext) {
    return { result: true as const, skills: await repo.skillsOf(ctx.db, businessOf(ctx)) };
  }

  /** Adds a skill, or relabels one: the code stays what drivers and orders store. */
  async save(ctx: OperationContext, input: { code: string; label: string }) {
    const businessId = businessOf(ctx);
    // One save at a time per business, so that two new skills cannot both pass the count.
    await repo.lockCatalogue(ctx.db, businessId);
    const [existing] = await repo.skillsOf(ctx.db, businessId, { codes: [input.code] });
    if (!existing && (await repo.countSkills(ctx.db, businessId)) >= CATALOGUE_LIMIT) {
      throw new AppError('SKILL_CATALOGUE_FULL', { params: { limit: CATALOGUE_LIMIT } });
    }
    const now = this.clock.now();
    await repo.saveSkill(ctx.db, { business_id: businessId, ...input, created_at: now, updated_at: now });
    return { result: true as const, created: !existing, skill: { code: input.code, label: input.label } };
  }

  /**
   * Removes a skill no driver holds and no open order needs; otherwise refuses, naming them. The
   * skill is locked first, so a write that would start using it meanwhile waits, then finds it gone.
   */
  async remove(ctx: OperationContext, code: string) {
    const businessId = businessOf(ctx);
    const [skill] = await repo.skillsOf(ctx.db, businessId, { codes: [code], lock: 'update' });
    if (!skill) throw new AppError('SKILL_NOT_FOUND', { params: { code } });
    const drivers = await this.dispatch.driversWithSkill(ctx.db, businessId, code, USES_NAMED);
    const orders = await this.orders.queries.needingSkill(ctx.db, businessId, code, USES_NAMED);
    if (drivers.count > 0 || orders.count > 0) {
      throw new AppError('SKILL_IN_USE', {
        params: { code, drivers: drivers.count, orders: orders.count },
        details: {
          drivers: drivers.count,
          orders: orders.count,
          driver_ids: drivers.ids,
          order_ids: orders.ids,
        },
      });
    }
    await repo.deleteSkill(ctx.db, businessId, code);
    return { result: true as const, deleted: code };
  }

  async driverSkills(ctx: OperationContext, driverId: number) {
    const businessId = businessOf(ctx);
    const driver = await this.driver(ctx.db, businessId, driverId);
    return {
      result: true as const,
      driver_id: driverId,
      skills: await this.labelled(ctx.db, businessId, driver.profile?.skills ?? []),
    };
  }

  /** Replaces a driver's skills with catalogue skills; the next route build plans by them. */
  async setDriverSkills(ctx: OperationContext, driverId: number, codes: readonly string[]) {
    const businessId = businessOf(ctx);
    const driver = await this.driver(ctx.db, businessId, driverId);
    if (!driver.profile) throw new AppError('DRIVER_PROFILE_REQUIRED', { params: { driver: driverId } });
    await this.requireKnown(ctx.db, businessId, codes);
    await this.dispatch.setDriverSkills(ctx.db, businessId, driverId, codes);
    return this.driverSkills(ctx, driverId);
  }

  async orderSkills(ctx: OperationContext, orderId: number) {
    const order = await this.orders.queries.detail(ctx, orderId);
    return {
      result: true as const,
      order_id: orderId,
      skills: await this.labelled(ctx.db, businessOf(ctx), order.required_skills),
    };
  }

  /**
   * Replaces the skills an order needs with catalogue skills. An order on a route keeps its plan
   * true: the change is refused unless the route's driver holds every skill; a delivered,
   * returned or cancelled order keeps the skills it had.
   */
  async setOrderSkills(ctx: OperationContext, orderId: number, given: readonly string[]) {
    const businessId = businessOf(ctx);
    const codes = [...new Set(given)];
    await this.requireKnown(ctx.db, businessId, codes);
    await this.orders.changes.updateRequiredSkills(ctx, orderId, codes, async (order) => {
      if (TERMINAL_STATUSES.includes(order.status)) {
        throw new AppError('ORDER_SKILLS_LOCKED', {
          params: { order: order.id, status: order.status },
          details: { status: order.status },
        });
      }
      if (order.route_id === null || order.driver_user_id === null) return;
      const [driver] = await this.dispatch.drivers(ctx.db, businessId, { ids: [order.driver_user_id] });
      const held = driver?.profile?.skills ?? [];
      const missing = codes.filter((code) => !held.includes(code));
      if (missing.length > 0) {
        throw new AppError('ROUTE_DRIVER_LACKS_SKILLS', {
          params: { order: order.id, route: order.route_id, skills: missing.join(', ') },
          details: { route_id: order.route_id, driver_id: order.driver_user_id, missing },
        });
      }
    });
    return this.orderSkills(ctx, orderId);
  }

  private async driver(db: Queryable, businessId: number, driverId: number) {
    const [driver] = await this.dispatch.drivers(db, businessId, { ids: [driverId] });
    if (!driver) throw new AppError('DRIVER_NOT_FOUND', { params: { driver: driverId } });
    return driver;
  }

  /**
   * Refuses codes the catalogue lacks, naming them; the others stay locked against removal until
   * the write that uses them commits.
   */
  private async requireKnown(db: Queryable, businessId: number, codes: readonly string[]) {
    const known = new Set(
      (await repo.skillsOf(db, businessId, { codes: [...new Set(codes)], lock: 'share' })).map((s) => s.code),
    );
    const unknown = [...new Set(codes)].filter((code) => !known.has(code));
    if (unknown.length > 0) {
      throw new AppError('SKILLS_NOT_IN_CATALOGUE', {
        params: { skills: unknown.join(', ') },
        details: { field: 'skills', unknown },
      });
    }
  }

  /** Codes with their catalogue labels, in code order. */
  private async labelled(db: Queryable, businessId: number, codes: readonly string[]): Promise<HeldSkill[]> {
    const labels = new Map(
      (await repo.skillsOf(db, businessId, { codes: [...codes] })).map((skill) => [skill.code, skill.label]),
    );
    return [...new Set(codes)].sort().map((code) => ({ code, label: labels.get(code) ?? null }));
  }
}
