import type { Generated } from 'kysely';

export interface OutboxTables {
  outbox: {
    id: Generated<number>;
    message_id: string;
    topic: string;
    business_id: number | null;
    payload: unknown;
    created_at: Date;
    available_at: Date;
    attempts: Generated<number>;
    leased_until: Date | null;
    leased_by: string | null;
    done_at: Date | null;
    last_error: string | null;
  };
}
