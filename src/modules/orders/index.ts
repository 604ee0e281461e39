// The orders module (orders, packages, their statuses and history): what other modules, the doors and the composition root may use.

export type {
  CreatedFact,
  ExceptionFact,
  OutcomeFact,
  ReasonFact,
  RevenueFact,
  StatusFact,
} from './facts.ts';
export { NO_REASON } from './facts.ts';
export type { OrderStatusChange, OrderStatusListener, ProofOfDelivery, StatusDetails } from './journal.ts';
export { orderWarningSchema } from './location-operations.ts';
export { ordersOperations } from './operations.ts';
export type { AssignableOrder } from './queries.ts';
export { RecipientPhones } from './recipient-phones.ts';
export type { ServiceArea } from './repository.ts';
export type { OrderFamily, OrderInput, OrderView } from './schemas.ts';
export {
  ORDER_FAMILIES,
  orderFamilySchema,
  orderInputSchema,
  orderSchema,
  orderStatusSchema,
  orderTypeSchema,
  packageInputSchema,
  packageSchema,
} from './schemas.ts';
export { OrdersService } from './service.ts';
export type { OrderStatus } from './statuses.ts';
export { OFF_ROUTE, ORDER_STATUS_IDS, ORDER_STATUSES, TERMINAL_STATUSES } from './statuses.ts';
export type { Address } from './tables.ts';
export type { ContractorPools, OrderScope, PoolBounds } from './views.ts';
