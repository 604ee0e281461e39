import { businessOf, callerOf, type OperationContext, STAFF } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { AccountsService } from '../accounts/index.ts';
import * as repo from './repository.ts';
import type { FleetRole } from './tables.ts';

/** A business may lead this many fleets; a list of fleets is one page. */
export const MAX_FLEETS = 200;

const STAFF_KINDS: ReadonlySet<string> = new Set(STAFF);

/** What a caller may do with a fleet: see it (its members, staff), or run its board and calendar (staff, its captains). */
export type FleetAccess = 'see' | 'lead';

/**
 * Fleets: groups of the business's drivers, led by captains. Staff see and run every fleet of
 * their business; a driver sees the fleets it belongs to, and leads those it captains. A fleet
 * the caller may not see answers FLEET_NOT_FOUND, as if it did not exist.
 */
export class FleetsService {
  /** What must happen before a fleet goes (its route board hands its open routes back). */
  private readonly deleting: Array<(ctx: OperationContext, fleetId: number) => Promise<void>> = [];

  constructor(
    private readonly accounts: AccountsService,
    private readonly clock: Clock,
  ) {}

  /** Runs `hook` in the transaction deleting a fleet, before the fleet and what cascades with it go. */
  onDelete(hook: (ctx: OperationContext, fleetId: number) => Promise<void>): void {
    this.deleting.push(hook);
  }

  async list(ctx: OperationContext) {
    const businessId = businessOf(ctx);
    const caller = callerOf(ctx);
    const driver = caller.kind === 'driver' ? caller.userId : undefined;
    const [rows, roles] = await Promise.all([
      repo.fleetsOf(ctx.db, businessId, driver),
      driver === undefined ? [] : repo.membershipsOf(ctx.db, businessId, driver),
    ]);
    const roleIn = new Map(roles.map((membership) => [membership.fleet_id, membership.role]));
    return {
      result: true as const,
      fleets: rows.map((row) => ({
        ...fleetView(row),
        members: Number(row.members),
        my_role: roleIn.get(row.id) ?? null,
      })),
    };
  }

  async get(ctx: OperationContext, fleetId: number) {
    const businessId = businessOf(ctx);
    const fleet = await this.access(ctx, fleetId, 'see');
    return this.answer(ctx.db, businessId, fleet);
  }

  async create(ctx: OperationContext, name: string) {
    const businessId = businessOf(ctx);
    const existing = await repo.fleetsOf(ctx.db, businessId);
    if (existing.length >= MAX_FLEETS) {
      throw new AppError('FLEETS_FULL', { params: { limit: MAX_FLEETS } });
    }
    this.refuseTakenName(existing, name);
    const fleet = await repo.createFleet(ctx.db, businessId, name, this.clock.now());
    return this.answer(ctx.db, businessId, fleet);
  }

  async rename(ctx: OperationContext, fleetId: number, name: string) {
    const businessId = businessOf(ctx);
    await this.access(ctx, fleetId, 'lead');
    this.refuseTakenName(
      (await repo.fleetsOf(ctx.db, businessId)).filter((fleet) => fleet.id !== fleetId),
      name,
    );
    const fleet = await repo.renameFleet(ctx.db, businessId, fleetId, name, this.clock.now());
    return this.answer(ctx.db, businessId, fleet!);
  }

  async delete(ctx: OperationContext, fleetId: number) {
    const businessId = businessOf(ctx);
    if (await repo.fleetById(ctx.db, businessId, fleetId)) {
      for (const hook of this.deleting) await hook(ctx, fleetId);
    }
    if (!(await repo.deleteFleet(ctx.db, businessId, fleetId))) throw notFound(fleetId);
    return { result: true as const, deleted: fleetId };
  }

  /** Adds a driver of the business to the fleet, or changes its role there. */
  async setMember(ctx: OperationContext, input: { fleet_id: number; driver_id: number; role: FleetRole }) {
    const businessId = businessOf(ctx);
    const fleet = await this.access(ctx, input.fleet_id, 'see');
    const [driver] = await this.accounts.usersOfKind(ctx.db, businessId, 'driver', [input.driver_id]);
    if (!driver) throw new AppError('DRIVER_NOT_FOUND', { params: { driver: input.driver_id } });
    await repo.setMember(
      ctx.db,
      { businessId, fleetId: fleet.id, driverId: driver.id, role: input.role },
      this.clock.now(),
    );
    return this.answer(ctx.db, businessId, fleet);
  }

  async removeMember(ctx: OperationContext, input: { fleet_id: number; driver_id: number }) {
    const businessId = businessOf(ctx);
    const fleet = await this.access(ctx, input.fleet_id, 'see');
    if (!(await repo.removeMember(ctx.db, businessId, fleet.id, input.driver_id))) {
      throw new AppError('DRIVER_NOT_FOUND', { params: { driver: input.driver_id } });
    }
    return this.answer(ctx.db, businessId, fleet);
  }

  /**
   * The fleet, when the caller may `see` it (staff of its business, its drivers) or `lead` it
   * (staff, its captains). A driver of the fleet who is not a captain is told why; anyone else
   * learns nothing (FLEET_NOT_FOUND).
   */
  async access(ctx: OperationContext, fleetId: number, need: FleetAccess) {
    const businessId = businessOf(ctx);
    const caller = callerOf(ctx);
    const fleet = await repo.fleetById(ctx.db, businessId, fleetId);
    if (!fleet) throw notFound(fleetId);
    if (STAFF_KINDS.has(caller.kind)) return fleet;
    const membership =
      caller.kind === 'driver'
        ? await repo.membershipOf(ctx.db, businessId, fleetId, caller.userId)
        : undefined;
    if (!membership) throw notFound(fleetId);
    if (need === 'lead' && membership.role !== 'captain') {
      throw new AppError('FLEET_CAPTAIN_REQUIRED', { params: { fleet: fleetId } });
    }
    return fleet;
  }

  /** The fleets the driver belongs to, with its role in each. */
  membershipsOf(db: Queryable, businessId: number, driverId: number) {
    return repo.membershipsOf(db, businessId, driverId);
  }

  /** Whether the driver is a member of the fleet. */
  async isMember(db: Queryable, businessId: number, fleetId: number, driverId: number): Promise<boolean> {
    return (await repo.membershipOf(db, businessId, fleetId, driverId)) !== undefined;
  }

  private refuseTakenName(fleets: readonly { name: string }[], name: string): void {
    if (fleets.some((fleet) => fleet.name.toLowerCase() === name.toLowerCase())) {
      throw new AppError('FLEET_NAME_TAKEN', { params: { name } });
    }
  }

  private async answer(db: Queryable, businessId: number, fleet: FleetRow) {
    const members = await repo.membersOf(db, businessId, fleet.id);
    const nameOf = await this.accounts.namesOf(
      db,
      members.map((member) => member.driver_user_id),
    );
    return {
      result: true as const,
      fleet: {
        ...fleetView(fleet),
        members: members.map((member) => ({
          driver_id: member.driver_user_id,
          name: nameOf.get(member.driver_user_id) ?? null,
          role: member.role,
          joined_at: member.joined_at.toISOString(),
        })),
      },
    };
  }
}

interface FleetRow {
  id: number;
  name: string;
  created_at: Date;
  updated_at: Date;
}

function fleetView(row: FleetRow) {
  return {
    id: row.id,
    name: row.name,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function notFound(fleetId: number): AppError {
  return new AppError('FLEET_NOT_FOUND', { params: { fleet: fleetId } });
}
