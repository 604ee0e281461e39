import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TestPaymentProvider } from './provider.ts';

describe('the test payment provider', () => {
  const request = { amountMinor: 990, currency: 'EUR', cardToken: 'tok_visa', reference: 'order:1' };

  it('answers a repeated idempotency key with the first outcome, and charges a new key anew', async () => {
    const provider = new TestPaymentProvider();
    const first = await provider.charge({ ...request, idempotencyKey: 'k1' });
    assert.deepEqual(await provider.charge({ ...request, idempotencyKey: 'k1' }), first);
    const other = await provider.charge({ ...request, idempotencyKey: 'k2' });
    assert.notEqual(other.reference, first.reference);
  });

  it('declines the decline test cards', async () => {
    const provider = new TestPaymentProvider();
    const declined = await provider.charge({
      ...request,
      cardToken: 'tok_decline_funds',
      idempotencyKey: 'k',
    });
    assert.equal(declined.status, 'declined');
  });
});
