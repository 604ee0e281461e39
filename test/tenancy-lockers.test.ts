import { isolationSuite } from './support/tenancy.ts';
import { lockerChecks } from './support/tenancy-lockers.ts';

isolationSuite('lockers and devices', lockerChecks);
