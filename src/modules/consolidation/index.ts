// The consolidation module (package forwarding: suites, inbound parcels and their tracking
// pushes, receiving and storage, consolidations): what the composition root may use.

import type { Operation } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { PackagingCatalog, Solvers } from '../packing/index.ts';
import type { ShippingService } from '../shipping/index.ts';
import type { TrackingService } from '../tracking/index.ts';
import type { WarehousesService } from '../warehouses/index.ts';
import { Consolidations } from './consolidations.ts';
import { Forwarding } from './forwarding.ts';
import { consolidationOperations } from './operations.ts';
import { TrackingPushes } from './pushes.ts';

export { PUSH_WINDOW_SECONDS } from './pushes.ts';

export class ConsolidationService {
  readonly forwarding: Forwarding;
  readonly pushes: TrackingPushes;
  readonly consolidations: Consolidations;

  constructor(
    clock: Clock,
    tracking: TrackingService,
    warehouses: WarehousesService,
    shipping: ShippingService,
    packing: { packaging: PackagingCatalog; solvers: Solvers },
  ) {
    this.forwarding = new Forwarding(clock, tracking, warehouses);
    this.pushes = new TrackingPushes(clock, tracking);
    this.consolidations = new Consolidations(
      clock,
      this.forwarding,
      shipping,
      tracking,
      packing.packaging,
      packing.solvers,
    );
  }

  operations(): Operation[] {
    return consolidationOperations(this.forwarding, this.pushes, this.consolidations);
  }
}
