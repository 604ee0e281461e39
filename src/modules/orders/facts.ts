import { sql } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import type { OrdersTables } from './tables.ts';

// Set-based facts about a business's orders, aggregated by local day in SQL, for a module that
// keeps its own rollup of them (analytics) and rebuilds it from here. Each definition is the
// one docs/analytics.md gives and the live rollup applies to each change.

/** Orders created on a local day, and the price booked with them (cancelled ones left out). */
export interface CreatedFact {
  day: string;
  customer_id: number | null;
  family: string;
  created: number;
}

/** Orders by the local day they were created and their status now. */
export interface StatusFact {
  day: string;
  customer_id: number | null;
  family: string;
  status: string;
  orders: number;
}

/** The price of orders created on a day and not cancelled, by currency. */
export interface RevenueFact {
  day: string;
  customer_id: number | null;
  family: string;
  currency: string;
  amount_minor: number;
  orders: number;
}

/** What happened to orders on a local day: deliveries (timed against their windows), failures, returns, cancellations. */
export interface OutcomeFact {
  day: string;
  customer_id: number | null;
  family: string;
  delivered: number;
  on_time: number;
  early: number;
  late: number;
  without_window: number;
  delivery_ms: number;
  failed_attempts: number;
  returned: number;
  cancelled: number;
}

export interface ReasonFact {
  day: string;
  customer_id: number | null;
  kind: 'failed_attempt' | 'returned';
  code: string;
  n: number;
}

/** One failed attempt or return, with its order. */
export interface ExceptionFact {
  event_id: number;
  day: string;
  at: Date;
  order_id: number;
  order_ref: string;
  customer_id: number | null;
  family: string;
  kind: 'failed_attempt' | 'returned';
  reason_code: string;
  note: string | null;
}

/** The reason code of a failed attempt or a return without one. */
export const NO_REASON = 'unspecified';

const local = (column: ReturnType<typeof sql.ref>, timeZone: string) =>
  sql<string>`to_char(${column} AT TIME ZONE ${timeZone}, 'YYYY-MM-DD')`;

/** Status changes of the audit trail (and the cancellation of a rerouted original) that end an attempt. */
function outcomes(businessId: number) {
  return sql`
    SELECT e.id, e.order_id, e.at, e.changes, e.changes -> 'status' ->> 'to' AS outcome
    FROM order_events e
    WHERE e.business_id = ${businessId}
      AND e.action IN ('status_changed', 'rerouted')
      AND e.changes -> 'status' ->> 'to' IN ('DELIVERED', 'FAILED_ATTEMPT', 'RETURNED', 'CANCELLED')`;
}

export class OrderFacts {
  async created(db: Queryable<OrdersTables>, businessId: number, timeZone: string): Promise<CreatedFact[]> {
    const day = local(sql.ref('created_at'), timeZone);
    const { rows } = await sql<CreatedFact>`
      SELECT ${day} AS day, customer_user_id AS customer_id, family, count(*)::int AS created
      FROM orders WHERE business_id = ${businessId}
      GROUP BY 1, 2, 3`.execute(db);
    return rows;
  }

  async statuses(db: Queryable<OrdersTables>, businessId: number, timeZone: string): Promise<StatusFact[]> {
    const day = local(sql.ref('created_at'), timeZone);
    const { rows } = await sql<StatusFact>`
      SELECT ${day} AS day, customer_user_id AS customer_id, family, status, count(*)::int AS orders
      FROM orders WHERE business_id = ${businessId}
      GROUP BY 1, 2, 3, 4`.execute(db);
    return rows;
  }

  async revenue(db: Queryable<OrdersTables>, businessId: number, timeZone: string): Promise<RevenueFact[]> {
    const day = local(sql.ref('o.created_at'), timeZone);
    const { rows } = await sql<RevenueFact>`
      SELECT ${day} AS day, o.customer_user_id AS customer_id, o.family, o.currency::text AS currency,
             sum(coalesce(o.shipping_price_minor, 0) + coalesce((
               SELECT sum((s ->> 'amount_minor')::bigint) FROM jsonb_array_elements(o.surcharges) s
             ), 0))::bigint AS amount_minor,
             count(*)::int AS orders
      FROM orders o
      WHERE o.business_id = ${businessId} AND o.currency IS NOT NULL AND o.status <> 'CANCELLED'
      GROUP BY 1, 2, 3, 4`.execute(db);
    return rows;
  }

  async outcomes(db: Queryable<OrdersTables>, businessId: number, timeZone: string): Promise<OutcomeFact[]> {
    // The delivery's local date and minute against the window on its date (the scheduled date,
    // else the day of delivery): before it early, after it late, within it on time.
    const { rows } = await sql<OutcomeFact>`
      WITH ev AS (${outcomes(businessId)}),
      timed AS (
        SELECT ev.outcome, o.customer_user_id, o.family,
               to_char(ev.at AT TIME ZONE ${timeZone}, 'YYYY-MM-DD') AS day,
               to_char(ev.at AT TIME ZONE ${timeZone}, 'HH24:MI') AS minute,
               coalesce(to_char(o.scheduled_date, 'YYYY-MM-DD'), to_char(ev.at AT TIME ZONE ${timeZone}, 'YYYY-MM-DD')) AS window_day,
               to_char(o.window_start, 'HH24:MI') AS window_start,
               to_char(o.window_end, 'HH24:MI') AS window_end,
               round(extract(epoch FROM ev.at - o.created_at) * 1000)::bigint AS ms
        FROM ev JOIN orders o ON o.id = ev.order_id AND o.business_id = ${businessId}
      ),
      judged AS (
        SELECT *, CASE
          WHEN outcome <> 'DELIVERED' THEN NULL
          WHEN window_start IS NULL OR window_end IS NULL THEN 'without_window'
          WHEN window_day > day OR (window_day = day AND minute < window_start) THEN 'early'
          WHEN window_day < day OR (window_day = day AND minute > window_end) THEN 'late'
          ELSE 'on_time' END AS timing
        FROM timed
      )
      SELECT day, customer_user_id AS customer_id, family,
             count(*) FILTER (WHERE outcome = 'DELIVERED')::int AS delivered,
             count(*) FILTER (WHERE timing = 'on_time')::int AS on_time,
             count(*) FILTER (WHERE timing = 'early')::int AS early,
             count(*) FILTER (WHERE timing = 'late')::int AS late,
             count(*) FILTER (WHERE timing = 'without_window')::int AS without_window,
             coalesce(sum(ms) FILTER (WHERE outcome = 'DELIVERED'), 0)::bigint AS delivery_ms,
             count(*) FILTER (WHERE outcome = 'FAILED_ATTEMPT')::int AS failed_attempts,
             count(*) FILTER (WHERE outcome = 'RETURNED')::int AS returned,
             count(*) FILTER (WHERE outcome = 'CANCELLED')::int AS cancelled
      FROM judged GROUP BY 1, 2, 3`.execute(db);
    return rows;
  }

  async reasons(db: Queryable<OrdersTables>, businessId: number, timeZone: string): Promise<ReasonFact[]> {
    const { rows } = await sql<ReasonFact>`
      WITH ev AS (${outcomes(businessId)})
      SELECT to_char(ev.at AT TIME ZONE ${timeZone}, 'YYYY-MM-DD') AS day, o.customer_user_id AS customer_id,
             CASE ev.outcome WHEN 'FAILED_ATTEMPT' THEN 'failed_attempt' ELSE 'returned' END AS kind,
             coalesce(CASE ev.outcome WHEN 'FAILED_ATTEMPT' THEN ev.changes -> 'incident_reason' -> 'to' ->> 'code'
                      ELSE ev.changes -> 'return_reason' -> 'to' ->> 'code' END, ${NO_REASON}) AS code,
             count(*)::int AS n
      FROM ev JOIN orders o ON o.id = ev.order_id AND o.business_id = ${businessId}
      WHERE ev.outcome IN ('FAILED_ATTEMPT', 'RETURNED')
      GROUP BY 1, 2, 3, 4`.execute(db);
    return rows;
  }

  /** Failed attempts and returns one page at a time, in the order of the audit trail (after `afterEventId`). */
  async exceptions(
    db: Queryable<OrdersTables>,
    businessId: number,
    timeZone: string,
    page: { afterEventId: number; limit: number },
  ): Promise<ExceptionFact[]> {
    const { rows } = await sql<ExceptionFact>`
      SELECT e.id AS event_id, to_char(e.at AT TIME ZONE ${timeZone}, 'YYYY-MM-DD') AS day, e.at,
             o.id AS order_id, o.order_ref, o.customer_user_id AS customer_id, o.family,
             CASE e.changes -> 'status' ->> 'to' WHEN 'FAILED_ATTEMPT' THEN 'failed_attempt' ELSE 'returned' END AS kind,
             coalesce(CASE e.changes -> 'status' ->> 'to' WHEN 'FAILED_ATTEMPT' THEN e.changes -> 'incident_reason' -> 'to' ->> 'code'
                      ELSE e.changes -> 'return_reason' -> 'to' ->> 'code' END, ${NO_REASON}) AS reason_code,
             CASE e.changes -> 'status' ->> 'to' WHEN 'FAILED_ATTEMPT' THEN e.changes -> 'incident_reason' -> 'to' ->> 'message'
                  ELSE e.changes -> 'return_reason' -> 'to' ->> 'note' END AS note
      FROM order_events e JOIN orders o ON o.id = e.order_id AND o.business_id = ${businessId}
      WHERE e.business_id = ${businessId} AND e.id > ${page.afterEventId}
        AND e.action = 'status_changed' AND e.changes -> 'status' ->> 'to' IN ('FAILED_ATTEMPT', 'RETURNED')
      ORDER BY e.id LIMIT ${page.limit}`.execute(db);
    return rows;
  }
}
