import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { envelopeOf, type PageQuery, pageWindow } from '../../platform/pagination.ts';
import type { AccountsService } from '../accounts/index.ts';
import * as repo from './repository.ts';
import { GRANTS, type Grant, type Grants } from './tables.ts';

const NO_GRANTS: Grants = { track_packages: false, see_orders: false, hand_over_orders: false };

function isGrant(name: string): name is Grant {
  return (GRANTS as readonly string[]).includes(name);
}

function grantsOf(row: Grants): Grants {
  return {
    track_packages: row.track_packages,
    see_orders: row.see_orders,
    hand_over_orders: row.hand_over_orders,
  };
}

/**
 * Alliances: named groups of businesses that share data. The creator's business owns one and is
 * its first member; others are invited by business code and accept or decline; a member leaves,
 * the owner removes members or dissolves the alliance. Each active member grants the others what
 * they may do with its data (track its packages, see its orders, hand orders over); other
 * modules ask `grants` before every cross-business read.
 */
export class AlliancesService {
  constructor(
    private readonly clock: Clock,
    private readonly accounts: AccountsService,
  ) {}

  // ----- reads -----

  async list(ctx: OperationContext, query: PageQuery) {
    const businessId = businessOf(ctx);
    const [total, rows] = await Promise.all([
      repo.countAlliancesOf(ctx.db, businessId),
      repo.alliancesOf(ctx.db, businessId, pageWindow(query)),
    ]);
    const owners = await this.accounts.businessesOf(
      ctx.db,
      rows.map((row) => row.owner_business_id),
    );
    return {
      result: true as const,
      ...envelopeOf(query, total),
      alliances: rows.map((row) =>
        this.allianceView(row, businessId, owners, {
          state: row.my_state,
          grants: grantsOf(row),
          memberCount: Number(row.member_count),
        }),
      ),
    };
  }

  async get(ctx: OperationContext, allianceId: number) {
    const businessId = businessOf(ctx);
    const { alliance, membership } = await this.require(ctx.db, allianceId, businessId);
    const [owners, memberCount] = await Promise.all([
      this.accounts.businessesOf(ctx.db, [alliance.owner_business_id]),
      repo.countActiveMembers(ctx.db, allianceId),
    ]);
    return {
      result: true as const,
      alliance: this.allianceView(alliance, businessId, owners, {
        state: membership.state,
        grants: grantsOf(membership),
        memberCount,
      }),
    };
  }

  /** The members (invited ones too) with the grants each gives; seen by members and invited businesses. */
  async members(ctx: OperationContext, allianceId: number, query: PageQuery) {
    const businessId = businessOf(ctx);
    const { alliance } = await this.require(ctx.db, allianceId, businessId);
    const [total, rows] = await Promise.all([
      repo.countMembers(ctx.db, allianceId),
      repo.membersOf(ctx.db, allianceId, pageWindow(query)),
    ]);
    const businesses = await this.accounts.businessesOf(
      ctx.db,
      rows.map((row) => row.business_id),
    );
    return {
      result: true as const,
      ...envelopeOf(query, total),
      members: rows.map((row) => ({
        business_code: businesses.get(row.business_id)?.code ?? '',
        business_name: businesses.get(row.business_id)?.name ?? '',
        role: row.business_id === alliance.owner_business_id ? ('owner' as const) : ('member' as const),
        state: row.state,
        grants: grantsOf(row),
        invited_at: row.invited_at.toISOString(),
        joined_at: row.joined_at?.toISOString() ?? null,
        is_me: row.business_id === businessId,
      })),
    };
  }

  /**
   * The businesses whose data the caller's business may read through alliances, with what each
   * grants it: only grants of active members of alliances the caller's business is active in.
   */
  async accessibleClients(ctx: OperationContext, query: PageQuery) {
    const businessId = businessOf(ctx);
    const rows = await repo.grantorsOf(ctx.db, businessId);
    const byBusiness = new Map<number, { grants: Grants; alliances: Array<{ id: number; name: string }> }>();
    for (const row of rows) {
      const entry = byBusiness.get(row.business_id) ?? { grants: { ...NO_GRANTS }, alliances: [] };
      for (const grant of GRANTS) entry.grants[grant] ||= row[grant];
      entry.alliances.push({ id: Number(row.alliance_id), name: row.alliance_name });
      byBusiness.set(row.business_id, entry);
    }
    // A business that grants nothing gives no access: it is not listed.
    const sharing = [...byBusiness].filter(([, entry]) => GRANTS.some((grant) => entry.grants[grant]));
    const window = pageWindow(query);
    const page = sharing.slice(window.offset, window.offset + window.limit);
    const businesses = await this.accounts.businessesOf(
      ctx.db,
      page.map(([id]) => id),
    );
    return {
      result: true as const,
      ...envelopeOf(query, sharing.length),
      clients: page.map(([id, entry]) => ({
        business_id: id,
        business_code: businesses.get(id)?.code ?? '',
        business_name: businesses.get(id)?.name ?? '',
        grants: entry.grants,
        alliances: entry.alliances,
      })),
    };
  }

  /**
   * Whether the owner business lets the reader business do this with its data: some alliance has
   * both as active members and the owner's membership there grants it. The one question every
   * cross-business read asks, at the moment of the read (a revoked grant or a left alliance
   * counts at once).
   */
  grants(db: Queryable, ownerBusinessId: number, readerBusinessId: number, grant: string): Promise<boolean> {
    if (ownerBusinessId === readerBusinessId || !isGrant(grant)) return Promise.resolve(false);
    return repo.grants(db, ownerBusinessId, readerBusinessId, grant);
  }

  // ----- writes -----

  async create(ctx: OperationContext, input: { name: string }) {
    const businessId = businessOf(ctx);
    const id = await repo.insertAlliance(ctx.db, {
      name: input.name,
      ownerBusinessId: businessId,
      userId: callerOf(ctx).userId,
      at: this.clock.now(),
    });
    return this.get(ctx, id);
  }

  async rename(ctx: OperationContext, allianceId: number, name: string) {
    await this.requireOwner(ctx, allianceId);
    await repo.renameAlliance(ctx.db, allianceId, name, this.clock.now());
    return this.get(ctx, allianceId);
  }

  /**
   * Invites a business by its code. Business codes are public (apps bootstrap from them, drivers
   * sign up with them), so an unknown code answers BUSINESS_NOT_FOUND as those doors do; the
   * answer shows nothing of the invited business beyond its code.
   */
  async invite(ctx: OperationContext, allianceId: number, businessCode: string) {
    await this.requireOwner(ctx, allianceId);
    const invited = await this.accounts.findBusiness(ctx.db, businessCode);
    if (!invited) throw new AppError('BUSINESS_NOT_FOUND');
    const existing = await repo.memberOf(ctx.db, allianceId, invited.id);
    if (existing) {
      throw new AppError(
        existing.state === 'active' ? 'ALLIANCE_ALREADY_MEMBER' : 'ALLIANCE_ALREADY_INVITED',
      );
    }
    await repo.insertInvitation(ctx.db, {
      allianceId,
      businessId: invited.id,
      userId: callerOf(ctx).userId,
      at: this.clock.now(),
    });
    return {
      result: true as const,
      invitation: { alliance_id: allianceId, business_code: businessCode, state: 'invited' as const },
    };
  }

  async accept(ctx: OperationContext, allianceId: number) {
    const businessId = businessOf(ctx);
    const { membership } = await this.require(ctx.db, allianceId, businessId, true);
    if (membership.state === 'active') throw new AppError('ALLIANCE_ALREADY_MEMBER');
    await repo.activate(ctx.db, allianceId, businessId, this.clock.now());
    return this.get(ctx, allianceId);
  }

  async decline(ctx: OperationContext, allianceId: number) {
    const businessId = businessOf(ctx);
    const { membership } = await this.require(ctx.db, allianceId, businessId, true);
    if (membership.state !== 'invited') throw new AppError('ALLIANCE_NOT_INVITED');
    await repo.deleteMember(ctx.db, allianceId, businessId);
    return { result: true as const, alliance_id: allianceId, state: 'declined' as const };
  }

  /**
   * Leaves an alliance: the membership and its grants go at once. The owner may leave only when
   * no one else is in it (or invited), which dissolves it; otherwise it removes the others or
   * dissolves the alliance first.
   */
  async leave(ctx: OperationContext, allianceId: number) {
    const businessId = businessOf(ctx);
    const { alliance, membership } = await this.require(ctx.db, allianceId, businessId, true);
    if (membership.state !== 'active') throw new AppError('ALLIANCE_INVITATION_PENDING');
    if (alliance.owner_business_id === businessId) {
      if ((await repo.countMembers(ctx.db, allianceId)) > 1)
        throw new AppError('ALLIANCE_OWNER_CANNOT_LEAVE');
      await repo.deleteAlliance(ctx.db, allianceId);
      return { result: true as const, alliance_id: allianceId, state: 'dissolved' as const };
    }
    await repo.deleteMember(ctx.db, allianceId, businessId);
    return { result: true as const, alliance_id: allianceId, state: 'left' as const };
  }

  /** The owner removes a member, or withdraws an invitation. */
  async removeMember(ctx: OperationContext, allianceId: number, businessCode: string) {
    const { alliance } = await this.requireOwner(ctx, allianceId);
    const business = await this.accounts.findBusiness(ctx.db, businessCode);
    const member = business && (await repo.memberOf(ctx.db, allianceId, business.id));
    if (!business || !member)
      throw new AppError('ALLIANCE_MEMBER_NOT_FOUND', { params: { code: businessCode } });
    if (business.id === alliance.owner_business_id) throw new AppError('ALLIANCE_OWNER_CANNOT_LEAVE');
    await repo.deleteMember(ctx.db, allianceId, business.id);
    return {
      result: true as const,
      alliance_id: allianceId,
      business_code: businessCode,
      state: 'removed' as const,
    };
  }

  async dissolve(ctx: OperationContext, allianceId: number) {
    await this.requireOwner(ctx, allianceId);
    await repo.deleteAlliance(ctx.db, allianceId);
    return { result: true as const, alliance_id: allianceId, state: 'dissolved' as const };
  }

  /** Sets what the caller's business grants the other members; grants not named stay as they are. */
  async setGrants(ctx: OperationContext, allianceId: number, grants: Partial<Grants>) {
    const businessId = businessOf(ctx);
    const { membership } = await this.require(ctx.db, allianceId, businessId, true);
    if (membership.state !== 'active') throw new AppError('ALLIANCE_INVITATION_PENDING');
    await repo.setGrants(ctx.db, allianceId, businessId, grants, this.clock.now());
    return this.get(ctx, allianceId);
  }

  // ----- helpers -----

  /** The alliance as the business sees it; ALLIANCE_NOT_FOUND when it is neither invited nor a member. */
  private async require(db: Queryable, allianceId: number, businessId: number, lock = false) {
    const found = await repo.allianceOf(db, allianceId, businessId, lock);
    if (!found) throw new AppError('ALLIANCE_NOT_FOUND', { params: { id: allianceId } });
    return found;
  }

  private async requireOwner(ctx: OperationContext, allianceId: number) {
    const found = await this.require(ctx.db, allianceId, businessOf(ctx), true);
    if (found.alliance.owner_business_id !== found.membership.business_id) {
      throw new AppError('ALLIANCE_OWNER_ONLY');
    }
    return found;
  }

  private allianceView(
    alliance: repo.AllianceRow,
    businessId: number,
    owners: Map<number, { code: string; name: string }>,
    mine: { state: 'invited' | 'active'; grants: Grants; memberCount: number },
  ) {
    const owner = owners.get(alliance.owner_business_id);
    return {
      id: alliance.id,
      name: alliance.name,
      owner: { business_code: owner?.code ?? '', business_name: owner?.name ?? '' },
      my_role: alliance.owner_business_id === businessId ? ('owner' as const) : ('member' as const),
      my_state: mine.state,
      my_grants: mine.grants,
      member_count: mine.memberCount,
      created_at: alliance.created_at.toISOString(),
      updated_at: alliance.updated_at.toISOString(),
    };
  }
}
