import type { Schemas } from '../shared/api.ts';
import type { ConsoleContext } from './context.ts';

export type OrderDetail = Schemas['Order'];

/** What every section of the order panel is handed: the order as last read, and how to read it again. */
export interface SectionProps {
  context: ConsoleContext;
  order: OrderDetail;
  /** The legs the API lists as lacking coordinates (get_orders_needing_location): none, mostly. */
  missing: readonly string[];
  /** Reads the order again, after an action changed it. */
  reread: () => void;
}
