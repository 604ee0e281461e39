import { RateLimiterMemory } from 'rate-limiter-flexible';
import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/errors.ts';
import { envelopeOf, pageWindow } from '../../platform/pagination.ts';
import { hashPassword } from './passwords.ts';
import * as repo from './repository.ts';
import { limited } from './service.ts';
import type { RegistrationStatus, VehicleType } from './tables.ts';

export interface DriverSignUp {
  business_code: string;
  name: string;
  email: string;
  password: string;
  phone?: string;
  vehicle_type?: VehicleType;
}

/**
 * Drivers who sign themselves up for a business by its code. The account is made at once,
 * switched off, and waits for an admin of the business to approve it (or reject it).
 */
export class DriverRegistrations {
  private readonly signUpsByAddress: RateLimiterMemory;

  constructor(
    private readonly clock: Clock,
    limits: { signUpsPerAddressPerHour: number },
  ) {
    this.signUpsByAddress = new RateLimiterMemory({
      keyPrefix: 'driver-sign-up-address',
      points: limits.signUpsPerAddressPerHour,
      duration: 3600,
    });
  }

  /**
   * The same answer whether the email is new or already has an account: a sign-up form must not
   * tell strangers who has an account. A taken email gets no second account and no application.
   */
  async register(ctx: OperationContext, input: DriverSignUp) {
    await limited(() => this.signUpsByAddress.consume(ctx.ip ?? 'unknown'));
    const business = await repo.findBusinessByCode(ctx.db, input.business_code);
    if (!business) throw new AppError('BUSINESS_NOT_FOUND');
    // Hashed either way, so both answers take the same time.
    const passwordHash = await hashPassword(input.password);
    const now = this.clock.now();
    const userId = await repo.insertUserUnlessTaken(ctx.db, {
      kind: 'driver',
      email: input.email.toLowerCase(),
      name: input.name,
      password_hash: passwordHash,
      business_id: business.id,
      contractor_company_id: null,
      disabled: true,
      created_at: now,
    });
    if (userId !== undefined) {
      await repo.insertDriverRegistration(ctx.db, {
        business_id: business.id,
        user_id: userId,
        phone: input.phone ?? null,
        vehicle_type: input.vehicle_type ?? null,
        created_at: now,
      });
    }
    return { result: true as const, status: 'pending_approval' as const };
  }

  async list(ctx: OperationContext, filter: { status?: RegistrationStatus; page: number; per_page: number }) {
    const businessId = businessOf(ctx);
    const [total, rows] = await Promise.all([
      repo.countDriverRegistrations(ctx.db, businessId, filter.status),
      repo.driverRegistrationsOf(ctx.db, businessId, {
        status: filter.status,
        ...pageWindow(filter),
      }),
    ]);
    return {
      result: true as const,
      ...envelopeOf(filter, total),
      registrations: rows.map((row) => ({
        ...row,
        created_at: row.created_at.toISOString(),
        decided_at: row.decided_at?.toISOString() ?? null,
      })),
    };
  }

  /** Approval turns the applicant into an ordinary driver of the business, who may now sign in. */
  async approve(ctx: OperationContext, id: number) {
    const registration = await this.pending(ctx, id);
    await repo.enableUser(ctx.db, registration.user_id);
    return this.decide(ctx, registration, 'approved', null);
  }

  /** A rejected applicant never signs in; the email stays taken, so the same person cannot reapply at once. */
  async reject(ctx: OperationContext, id: number, reason: string | undefined) {
    return this.decide(ctx, await this.pending(ctx, id), 'rejected', reason ?? null);
  }

  private async pending(ctx: OperationContext, id: number) {
    const registration = await repo.lockDriverRegistration(ctx.db, businessOf(ctx), id);
    if (!registration) throw new AppError('REGISTRATION_NOT_FOUND', { params: { id } });
    if (registration.status !== 'pending') {
      throw new AppError('REGISTRATION_ALREADY_DECIDED', { params: { id, status: registration.status } });
    }
    return registration;
  }

  private async decide(
    ctx: OperationContext,
    registration: { id: number; user_id: number },
    status: 'approved' | 'rejected',
    reason: string | null,
  ) {
    const decidedAt = this.clock.now();
    await repo.decideDriverRegistration(ctx.db, registration.id, {
      status,
      decidedBy: callerOf(ctx).userId,
      at: decidedAt,
      reason,
    });
    return {
      result: true as const,
      id: registration.id,
      user_id: registration.user_id,
      status,
      decided_at: decidedAt.toISOString(),
    };
  }
}
