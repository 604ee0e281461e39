import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { redisAnswers, REDIS as redisUrl } from '../../test/support/redis.ts';
import { isAppError } from './errors.ts';
import { type RequestLimitSettings, RequestLimits } from './limits.ts';

const SETTINGS: RequestLimitSettings = {
  perTokenPerMinute: 5,
  perBusinessPerMinute: 8,
  perAddressPerMinute: 3,
  expensiveConcurrency: 1,
  redisUrl: undefined,
  refusalDelayMs: 10,
};

const refusedAs429 = (error: unknown) => {
  assert.ok(isAppError(error) && error.code === 'RATE_LIMITED', String(error));
  assert.ok(Number(error.options.headers?.['Retry-After']) >= 1);
  return true;
};

interface Call {
  bearer?: string;
  address?: string;
  businessId?: number;
}

/** One request as the executor counts it: its caller, then its business. */
async function admit(limits: RequestLimits, call: Call) {
  if (call.bearer) await limits.admitToken(call.bearer);
  else await limits.admitAddress(call.address);
  await limits.admitBusiness(call.businessId);
}

async function admitted(limits: RequestLimits, call: Call, times: number) {
  for (let i = 0; i < times; i++) await admit(limits, call);
}

describe('request limits', () => {
  it('give each token, business and anonymous address its own share', async () => {
    const limits = new RequestLimits(SETTINGS);
    await admitted(limits, { bearer: 'tms_one', businessId: 10 }, 5);
    await assert.rejects(admit(limits, { bearer: 'tms_one', businessId: 10 }), refusedAs429);
    // Another token of the same business has its own share, up to the business's.
    // (The refused request above counted against its token only: it never reached the business.)
    await admitted(limits, { bearer: 'tms_two', businessId: 10 }, 3);
    await assert.rejects(
      admit(limits, { bearer: 'tms_two', businessId: 10 }),
      refusedAs429,
      'the business used its 8',
    );
    // Another business is not touched by the first one's traffic.
    await admitted(limits, { bearer: 'tms_three', businessId: 20 }, 5);
    await admitted(limits, { address: '198.51.100.7' }, 3);
    await assert.rejects(admit(limits, { address: '198.51.100.7' }), refusedAs429);
    await admit(limits, { address: '198.51.100.8' });
    await limits.close();
  });

  it('holds a refusal for a moment, so a client that ignores Retry-After cannot spin', async (t) => {
    const limits = new RequestLimits({ ...SETTINGS, perAddressPerMinute: 1, refusalDelayMs: 1000 });
    await limits.admitAddress('203.0.113.9');
    t.mock.timers.enable({ apis: ['setTimeout'] });
    let settled = false;
    const refused = limits.admitAddress('203.0.113.9').catch((error) => {
      settled = true;
      return error;
    });
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(settled, false, 'the 429 waits');
    t.mock.timers.tick(1000);
    assert.ok(refusedAs429(await refused));
    t.mock.timers.reset();
    await limits.close();
  });

  it('lets a business run only so many expensive operations at once', async () => {
    const limits = new RequestLimits(SETTINGS);
    let finish!: () => void;
    const running = limits.expensive(10, () => new Promise<void>((resolve) => (finish = resolve)));
    await assert.rejects(
      limits.expensive(10, async () => 'second'),
      refusedAs429,
    );
    assert.equal(await limits.expensive(20, async () => 'other business'), 'other business');
    finish();
    await running;
    assert.equal(await limits.expensive(10, async () => 'after'), 'after');
    await limits.close();
  });

  describe('shared through Redis', {
    skip: !redisAnswers && `no Redis server answers at ${redisUrl}`,
  }, () => {
    const prefix = `tms-test-${randomUUID()}`;
    const instances = [0, 1].map(() => new RequestLimits({ ...SETTINGS, redisUrl, redisKeyPrefix: prefix }));
    after(() => Promise.all(instances.map((limits) => limits.close())));

    it('counts a token across instances', async () => {
      const [first, second] = instances as [RequestLimits, RequestLimits];
      await Promise.all(instances.map((limits) => limits.connected()));
      await admitted(first, { bearer: 'tms_one' }, 3);
      await admitted(second, { bearer: 'tms_one' }, 2);
      await assert.rejects(admit(first, { bearer: 'tms_one' }), refusedAs429, 'five were used, across both');
      await assert.rejects(admit(second, { bearer: 'tms_one' }), refusedAs429);
      // In memory, each instance would count alone: the shared count is Redis's.
      const alone = new RequestLimits(SETTINGS);
      await admitted(alone, { bearer: 'tms_one' }, 5);
      await alone.close();
    });
  });
});
