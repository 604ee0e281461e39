import { randomUUID } from 'node:crypto';

export interface ChargeRequest {
  amountMinor: number;
  currency: string;
  cardToken: string;
  reference: string;
  /**
   * The provider charges at most once per key, answering a repeated request with the first
   * outcome (as Stripe's Idempotency-Key and Adyen's idempotency-key do): a retry after a crash
   * between the charge and its record cannot charge twice.
   */
  idempotencyKey: string;
}

export interface ChargeOutcome {
  status: 'succeeded' | 'declined';
  reference: string;
}

/** A card payment provider. A real one (Stripe, Adyen, ...) implements this and nothing else changes. */
export interface PaymentProvider {
  readonly name: string;
  charge(request: ChargeRequest): Promise<ChargeOutcome>;
}

/**
 * The built-in test provider: every card token succeeds except `tok_decline` (and tokens starting
 * with it), as test cards of real providers do.
 */
export class TestPaymentProvider implements PaymentProvider {
  readonly name = 'test';
  private readonly outcomes = new Map<string, ChargeOutcome>();

  async charge(request: ChargeRequest): Promise<ChargeOutcome> {
    const known = this.outcomes.get(request.idempotencyKey);
    if (known) return known;
    const reference = `test_${randomUUID()}`;
    const outcome: ChargeOutcome = {
      status: request.cardToken.startsWith('tok_decline') ? 'declined' : 'succeeded',
      reference,
    };
    this.outcomes.set(request.idempotencyKey, outcome);
    return outcome;
  }
}
