import type { Generated } from 'kysely';

export interface PaymentsTables {
  payments: {
    id: Generated<number>;
    business_id: number;
    order_id: number;
    payer_user_id: number;
    amount_minor: number;
    currency: string;
    method: 'card' | 'credits';
    provider: string;
    provider_reference: string;
    status: 'succeeded' | 'declined';
    created_at: Date;
  };
  credit_ledger: {
    id: Generated<number>;
    business_id: number;
    customer_user_id: number;
    amount_minor: number;
    currency: string;
    reason: string;
    payment_id: number | null;
    created_at: Date;
  };
}
