import { isolationSuite } from './support/tenancy.ts';
import { shippingWarehouseChecks } from './support/tenancy-shipping-warehouses.ts';

isolationSuite('shipping and warehouses', shippingWarehouseChecks);
