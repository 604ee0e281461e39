/** What the mutation run (bench/mutation/run.ts) breaks, and the tests it expects to notice. */

export interface Group {
  /** The files holding the group's rules. */
  mutate: string[];
  /**
   * Rule tables (statuses, windows, codes) are mutated in full: their rules are literals. Use cases
   * that also build messages, SQL and answers leave out the mutators of those (EXCLUDED_IN_USE_CASES).
   */
  kind: 'rule table' | 'use case';
  /** The tests that guard them: quick unit files first, as a file that fails ends a mutant's run. */
  tests: string[];
}

export const GROUPS: Record<string, Group> = {
  orders: {
    kind: 'rule table',
    mutate: ['src/modules/orders/statuses.ts'],
    tests: ['src/modules/orders/statuses.test.ts', 'test/order-status-moves.test.ts'],
  },
  fleets: {
    kind: 'rule table',
    mutate: ['src/modules/fleets/board-rules.ts'],
    tests: [
      'src/modules/fleets/board-rules.test.ts',
      'test/route-board-rules.test.ts',
      'test/route-board.test.ts',
    ],
  },
  pricing: {
    kind: 'rule table',
    mutate: ['src/modules/pricing/policy.ts'],
    tests: ['src/modules/pricing/policy.test.ts', 'test/price-hiding.test.ts'],
  },
  slots: {
    kind: 'rule table',
    mutate: ['src/modules/reservations/availability.ts'],
    tests: ['src/modules/reservations/availability.test.ts', 'test/reservations.test.ts'],
  },
  'locker-codes': {
    kind: 'rule table',
    mutate: ['src/modules/lockers/codes.ts'],
    tests: ['src/modules/lockers/codes.test.ts', 'test/lockers.test.ts', 'test/tenancy-lockers.test.ts'],
  },
  reservations: {
    kind: 'use case',
    mutate: ['src/modules/reservations/bookings.ts'],
    tests: ['test/reservations.test.ts', 'test/tenancy-reservations.test.ts'],
  },
  approvals: {
    kind: 'use case',
    mutate: ['src/modules/approvals/service.ts'],
    tests: ['test/approvals.test.ts', 'test/approvals-dry-run.test.ts'],
  },
  lockers: {
    kind: 'use case',
    mutate: ['src/modules/lockers/bookings.ts'],
    tests: ['test/lockers.test.ts', 'test/tenancy-lockers.test.ts'],
  },
  contractors: {
    kind: 'use case',
    mutate: ['src/modules/contractors/assignments.ts', 'src/modules/contractors/service.ts'],
    tests: ['test/assignments.test.ts', 'test/contractors.test.ts'],
  },
};

/**
 * Mutators left out of use cases: there they change message texts, SQL fragments and the shape of
 * answers, which the contract tests (OpenAPI and GraphQL drift, the error catalogue) guard.
 */
export const EXCLUDED_IN_USE_CASES = ['StringLiteral', 'ObjectLiteral', 'ArrayDeclaration', 'Regex'];
