import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { AppError } from './errors.ts';
import { loadPackage } from './packages.ts';

/** Requests a minute each caller may make; `expensiveConcurrency` bounds heavy operations at once. */
export interface RequestLimitSettings {
  perTokenPerMinute: number;
  perBusinessPerMinute: number;
  /** Callers without a token, by network address. */
  perAddressPerMinute: number;
  /** Operations marked expensive running at once for one business, per instance. */
  expensiveConcurrency: number;
  /** Shared counters for every instance; in this process's memory without it. */
  redisUrl: string | undefined;
  /** Prefix of the counters' Redis keys (several services may share one Redis). */
  redisKeyPrefix?: string;
  /**
   * How long a caller over its share waits for its 429. A refusal costs little, but a client that
   * ignores Retry-After and asks again at once would send thousands a second and take the event
   * loop from everyone else; held for a moment, each connection asks about once a second.
   */
  refusalDelayMs: number;
}

/**
 * Fair shares of the service: a token, a business (all its tokens together) and an anonymous
 * address each get so many requests a minute, so one noisy caller gets 429s instead of slowing
 * everyone. With REDIS_URL the counts are shared by every instance; if Redis stops answering,
 * each instance counts in memory until it is back.
 */
export class RequestLimits {
  private readonly byToken: RateLimiterAbstract;
  private readonly byBusiness: RateLimiterAbstract;
  private readonly byAddress: RateLimiterAbstract;
  private readonly expensiveRunning = new Map<number, number>();
  private readonly redis: Redis | undefined;

  constructor(private readonly settings: RequestLimitSettings) {
    this.redis = settings.redisUrl
      ? new (loadPackage<typeof import('ioredis')>('ioredis').Redis)(settings.redisUrl, {
          enableOfflineQueue: false,
          maxRetriesPerRequest: 1,
          lazyConnect: false,
        })
      : undefined;
    // An unreachable Redis is reported through the limiters' insurance, not as a crash.
    this.redis?.on('error', () => {});
    const limiter = (keyPrefix: string, points: number) => {
      const memory = new RateLimiterMemory({ keyPrefix, points, duration: 60 });
      return this.redis
        ? new RateLimiterRedis({
            storeClient: this.redis,
            keyPrefix: `${settings.redisKeyPrefix ?? 'tms'}:${keyPrefix}`,
            points,
            duration: 60,
            insuranceLimiter: memory,
          })
        : memory;
    };
    this.byToken = limiter('token', settings.perTokenPerMinute);
    this.byBusiness = limiter('business', settings.perBusinessPerMinute);
    this.byAddress = limiter('address', settings.perAddressPerMinute);
  }

  /**
   * Counts one request against the bearer token it carries, before anything else is done for
   * it: a caller over its share costs no database lookup. RATE_LIMITED past it.
   */
  async admitToken(bearer: string | undefined): Promise<void> {
    if (bearer)
      await this.refusedSlowly(
        consume(this.byToken, createHash('sha256').update(bearer).digest('base64url')),
      );
  }

  /** Counts one request of a caller without a valid token against its network address. */
  // Plain promise chains, not async frames: every anonymous read, kept answers included, passes here.
  admitAddress(address: string | undefined): Promise<void> {
    return address ? this.refusedSlowly(consume(this.byAddress, address)) : ADMITTED;
  }

  private refusedSlowly(step: Promise<void>): Promise<void> {
    return step.catch(
      (refusal) =>
        new Promise<never>((_resolve, reject) =>
          setTimeout(() => reject(refusal), this.settings.refusalDelayMs),
        ),
    );
  }

  /** Counts one request against the business it acts in. */
  async admitBusiness(businessId: number | null | undefined): Promise<void> {
    if (businessId) await consume(this.byBusiness, String(businessId));
  }

  /**
   * Runs an expensive operation (route building, bulk creation, batch reads) if the business has
   * fewer than `expensiveConcurrency` running on this instance; else RATE_LIMITED at once.
   */
  async expensive<T>(businessId: number | null | undefined, run: () => Promise<T>): Promise<T> {
    if (!businessId) return run();
    const running = this.expensiveRunning.get(businessId) ?? 0;
    if (running >= this.settings.expensiveConcurrency) throw rateLimited(1000);
    this.expensiveRunning.set(businessId, running + 1);
    try {
      return await run();
    } finally {
      const left = (this.expensiveRunning.get(businessId) ?? 1) - 1;
      if (left > 0) this.expensiveRunning.set(businessId, left);
      else this.expensiveRunning.delete(businessId);
    }
  }

  /** Resolves once the shared counters are reachable (at once without Redis). */
  async connected(): Promise<void> {
    const redis = this.redis;
    if (!redis || redis.status === 'ready') return;
    await new Promise<void>((resolve) => redis.once('ready', () => resolve()));
  }

  async close(): Promise<void> {
    await this.redis?.quit().catch(() => this.redis?.disconnect());
  }
}

const ADMITTED: Promise<void> = Promise.resolve();

function consume(limiter: RateLimiterAbstract, key: string): Promise<void> {
  return limiter.consume(key).then(
    () => undefined,
    (refusal) => {
      throw refusal instanceof RateLimiterRes ? rateLimited(refusal.msBeforeNext) : refusal;
    },
  );
}

export function rateLimited(msBeforeNext: number): AppError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new AppError('RATE_LIMITED', {
    params: { seconds },
    details: { retry_after_seconds: seconds },
    headers: { 'Retry-After': String(seconds) },
  });
}
