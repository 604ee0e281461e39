/**
 * The order lifecycle. NEW_ORDER and HOLD come from the interface; the rest are what a delivery
 * business needs between creation and an end state. docs/orders.md shows the same table.
 */
export const ORDER_STATUSES = [
  'NEW_ORDER',
  'HOLD',
  'PLANNED',
  'PICKED_UP',
  'AT_WAREHOUSE',
  'OUT_FOR_DELIVERY',
  'DELIVERED',
  'FAILED_ATTEMPT',
  'RETURNED',
  'CANCELLED',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Numeric status ids (`order_status_id` in assignment records): 1 for NEW_ORDER, in the order above. */
export const ORDER_STATUS_IDS = Object.fromEntries(
  ORDER_STATUSES.map((status, index) => [status, index + 1]),
) as Record<OrderStatus, number>;

/** Allowed moves: from a status to the statuses it may become. */
export const TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  NEW_ORDER: ['PLANNED', 'PICKED_UP', 'HOLD', 'CANCELLED'],
  HOLD: ['NEW_ORDER', 'CANCELLED'],
  PLANNED: ['NEW_ORDER', 'PICKED_UP', 'OUT_FOR_DELIVERY', 'FAILED_ATTEMPT', 'HOLD', 'CANCELLED'],
  PICKED_UP: ['AT_WAREHOUSE', 'OUT_FOR_DELIVERY', 'DELIVERED', 'FAILED_ATTEMPT', 'CANCELLED'],
  AT_WAREHOUSE: ['PLANNED', 'OUT_FOR_DELIVERY', 'HOLD', 'RETURNED', 'CANCELLED'],
  OUT_FOR_DELIVERY: ['DELIVERED', 'FAILED_ATTEMPT', 'CANCELLED'],
  FAILED_ATTEMPT: [
    'OUT_FOR_DELIVERY',
    'AT_WAREHOUSE',
    'PLANNED',
    'NEW_ORDER',
    'HOLD',
    'RETURNED',
    'CANCELLED',
  ],
  DELIVERED: [],
  RETURNED: [],
  CANCELLED: [],
};

export const TERMINAL_STATUSES: readonly OrderStatus[] = ORDER_STATUSES.filter(
  (s) => TRANSITIONS[s].length === 0,
);

/** Progress a driver or dispatcher records on the way to an end state (update_order_status). */
export const PROGRESS_STATUSES = [
  'PICKED_UP',
  'AT_WAREHOUSE',
  'OUT_FOR_DELIVERY',
  'DELIVERED',
  'FAILED_ATTEMPT',
  'RETURNED',
] as const satisfies readonly OrderStatus[];

/** Statuses in which an order has not been picked up yet: it can still be rerouted. */
export const BEFORE_PICKUP: readonly OrderStatus[] = ['NEW_ORDER', 'HOLD', 'PLANNED'];

/** Statuses the dispatch board still has to act on; hold_order takes an order out of them. */
export const DISPATCHABLE: readonly OrderStatus[] = [
  'NEW_ORDER',
  'PLANNED',
  'AT_WAREHOUSE',
  'FAILED_ATTEMPT',
];

export function canMove(from: OrderStatus, to: OrderStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** Statuses that take an order out of dispatch, and so off its route. */
export const OFF_ROUTE: readonly OrderStatus[] = ['HOLD', 'CANCELLED', 'NEW_ORDER', 'RETURNED'];
/** The route columns of an order on no route. */
export const OFF_ROUTE_CHANGES = { route_id: null, driver_user_id: null };
