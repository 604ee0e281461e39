// The orders module (orders, packages, their statuses and history): what other modules, the doors and the composition root may use.
export { ordersOperations } from './operations.ts';
export type { ServiceArea } from './repository.ts';
export type { OrderFamily, OrderInput, OrderView } from './schemas.ts';
export { ORDER_FAMILIES, orderInputSchema, orderSchema, packageInputSchema } from './schemas.ts';
export type {
  AssignableOrder,
  ContractorPools,
  OrderScope,
  OrderStatusChange,
  OrderStatusListener,
  PoolBounds,
} from './service.ts';
export { OrdersService } from './service.ts';
export type { OrderStatus } from './statuses.ts';
export { ORDER_STATUS_IDS } from './statuses.ts';
export type { Address } from './tables.ts';
