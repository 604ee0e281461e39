import type { Generated } from 'kysely';

/** customer_key of the rows that count the whole business. */
export const WHOLE_BUSINESS = 0;

export interface AnalyticsTables {
  analytics_daily: {
    business_id: number;
    customer_key: number;
    day: string;
    family: string;
    created: number;
    delivered: number;
    on_time: number;
    early: number;
    late: number;
    without_window: number;
    delivery_ms: number;
    failed_attempts: number;
    returned: number;
    cancelled: number;
  };
  analytics_statuses: {
    business_id: number;
    customer_key: number;
    day: string;
    family: string;
    status: string;
    orders: number;
  };
  analytics_revenue: {
    business_id: number;
    customer_key: number;
    day: string;
    family: string;
    currency: string;
    amount_minor: number;
    orders: number;
  };
  analytics_reasons: {
    business_id: number;
    customer_key: number;
    day: string;
    kind: 'failed_attempt' | 'returned';
    code: string;
    n: number;
  };
  analytics_exceptions: {
    id: Generated<number>;
    business_id: number;
    day: string;
    at: Date;
    order_id: number;
    order_ref: string;
    customer_user_id: number | null;
    family: string;
    kind: 'failed_attempt' | 'returned';
    reason_code: string;
    note: string | null;
  };
}
