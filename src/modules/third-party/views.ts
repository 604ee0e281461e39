import type { z } from 'zod';
import type { OrderFamily } from '../orders/index.ts';
import type { ConnectionRow, ProviderOrderRow } from './repository.ts';
import type { MappedOrder, mappingSchema, rulesSchema } from './schemas.ts';

const iso = (at: Date | null) => (at ? at.toISOString() : null);

/**
 * A connection as its business sees it: never its credential (a hint), never the push token.
 * Its JSON columns hold what the input schemas let through when it was saved, hence the casts.
 */
export function connectionView(row: ConnectionRow, publicBaseUrl: string) {
  return {
    id: row.id,
    name: row.name,
    adapter: row.adapter,
    base_url: row.base_url,
    credential_hint: row.credential_hint,
    family: row.family as OrderFamily,
    mapping: row.mapping as z.input<typeof mappingSchema>,
    rules: row.rules as z.input<typeof rulesSchema> | null,
    poll_seconds: row.poll_seconds,
    active: row.active,
    cursor: row.cursor,
    next_pull_at: row.next_pull_at.toISOString(),
    failures: row.failures,
    last_error: row.last_error,
    last_error_at: iso(row.last_error_at),
    last_success_at: iso(row.last_success_at),
    push_url: `${publicBaseUrl}/api/v1/third-party/connections/${row.id}/push`,
    created_at: row.created_at.toISOString(),
  };
}

export function providerOrderView(row: ProviderOrderRow) {
  return {
    id: row.id,
    connection_id: row.connection_id,
    provider_order_id: row.provider_order_id,
    state: row.state,
    accept_by: row.accept_by.toISOString(),
    order_id: row.order_id,
    decided_by: row.decided_by,
    decision_reason: row.decision_reason,
    last_error: row.last_error,
    received_at: row.received_at.toISOString(),
    decided_at: iso(row.decided_at),
    // What intake's localOrderOf parsed when the order came in.
    order: row.mapped as MappedOrder,
  };
}
