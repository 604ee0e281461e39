import type { Clock } from '../../platform/clock.ts';
import type { DomainEvents } from '../../platform/events.ts';
import type { AccountsService } from '../accounts/index.ts';
import { OrderChanges } from './changes.ts';
import { OrderFacts } from './facts.ts';
import { type AddressBook, OrderIntake } from './intake.ts';
import { OrderJournal } from './journal.ts';
import { OrderLocations } from './locations.ts';
import { OrderQueries } from './queries.ts';
import { OrderReplanning } from './replanning.ts';
import { OrderReturns } from './returns.ts';
import type { ContractorPools } from './views.ts';

/**
 * Orders of every family, their packages and statuses, and the audit trail of every change: the
 * module's service, one part per use case.
 */
export class OrdersService {
  readonly journal: OrderJournal;
  readonly queries: OrderQueries;
  readonly intake: OrderIntake;
  readonly changes: OrderChanges;
  readonly returns: OrderReturns;
  readonly locations: OrderLocations;
  readonly replanning: OrderReplanning;
  /** Aggregated facts for a rollup kept elsewhere (analytics) to be rebuilt from. */
  readonly facts = new OrderFacts();

  constructor(
    clock: Clock,
    accounts: AccountsService,
    pools: ContractorPools,
    events: DomainEvents,
    addressBook: AddressBook,
  ) {
    this.journal = new OrderJournal(clock, events);
    this.queries = new OrderQueries(clock, accounts, pools);
    this.locations = new OrderLocations(clock, this.journal, this.queries, addressBook);
    this.intake = new OrderIntake(clock, accounts, this.journal, addressBook, this.locations);
    this.returns = new OrderReturns(clock);
    this.changes = new OrderChanges(clock, this.journal, this.queries, this.returns);
    this.replanning = new OrderReplanning(clock, this.journal);
  }
}
