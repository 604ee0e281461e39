import { randomUUID } from 'node:crypto';

/** A card payment provider. A real one (Stripe, Adyen, ...) implements this and nothing else changes. */
export interface PaymentProvider {
  readonly name: string;
  charge(request: { amountMinor: number; currency: string; cardToken: string; reference: string }): Promise<{
    status: 'succeeded' | 'declined';
    reference: string;
  }>;
}

/**
 * The built-in test provider: every card token succeeds except `tok_decline` (and tokens starting
 * with it), as test cards of real providers do.
 */
export class TestPaymentProvider implements PaymentProvider {
  readonly name = 'test';

  async charge(request: { amountMinor: number; currency: string; cardToken: string; reference: string }) {
    const reference = `test_${randomUUID()}`;
    if (request.cardToken.startsWith('tok_decline')) return { status: 'declined' as const, reference };
    return { status: 'succeeded' as const, reference };
  }
}
