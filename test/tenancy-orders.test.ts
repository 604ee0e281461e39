import { isolationSuite } from './support/tenancy.ts';
import { orderChecks } from './support/tenancy-orders.ts';

isolationSuite('orders, their chat and return reasons', orderChecks);
