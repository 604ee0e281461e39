import type { Generated } from 'kysely';

export interface ContractorsTables {
  contractor_rules: {
    id: Generated<number>;
    business_id: number;
    contractor_company_id: number;
    postal_prefixes: string[];
    valid_from: string;
    valid_to: string | null;
    note: string | null;
    created_at: Date;
  };
  broker_order_assignments: {
    id: Generated<number>;
    business_id: number;
    order_id: number;
    broker_user_id: number;
    status: AssignmentStatus;
    note: string | null;
    assigned_by: number | null;
    assigned_at: Date;
    ended_by: number | null;
    ended_at: Date | null;
    end_reason: string | null;
  };
}

export const ASSIGNMENT_STATUSES = ['active', 'revoked', 'released'] as const;
export type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];
