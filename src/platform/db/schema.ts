import type { AccountsTables } from '../../modules/accounts/tables.ts';
import type { AppsTables } from '../../modules/apps/tables.ts';
import type { ContractorsTables } from '../../modules/contractors/tables.ts';
import type { DispatchTables } from '../../modules/dispatch/tables.ts';
import type { DocumentsTables } from '../../modules/documents/tables.ts';
import type { OrdersTables } from '../../modules/orders/tables.ts';
import type { PaymentsTables } from '../../modules/payments/tables.ts';
import type { PricingTables } from '../../modules/pricing/tables.ts';
import type { ShippingTables } from '../../modules/shipping/tables.ts';
import type { TrackingTables } from '../../modules/tracking/tables.ts';
import type { WebhooksTables } from '../../modules/webhooks/tables.ts';
import type { AuditTables } from '../catalog/audit.ts';
import type { OutboxTables } from '../outbox/tables.ts';

/** Every table, as each module declares its own. A module queries only the tables it declares. */
export interface Database
  extends AccountsTables,
    ContractorsTables,
    OrdersTables,
    DispatchTables,
    DocumentsTables,
    TrackingTables,
    PricingTables,
    PaymentsTables,
    ShippingTables,
    WebhooksTables,
    AppsTables,
    AuditTables,
    OutboxTables {}
