import { isolationSuite } from './support/tenancy.ts';
import { packingChecks } from './support/tenancy-packing.ts';

isolationSuite('packing plans and load plans', packingChecks);
