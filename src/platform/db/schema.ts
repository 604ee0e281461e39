import type { AccountsTables } from '../../modules/accounts/tables.ts';
import type { DispatchTables } from '../../modules/dispatch/tables.ts';
import type { OrdersTables } from '../../modules/orders/tables.ts';
import type { AuditTables } from '../catalog/audit.ts';

/** Every table, as each module declares its own. A module queries only the tables it declares. */
export interface Database extends AccountsTables, OrdersTables, DispatchTables, AuditTables {}
