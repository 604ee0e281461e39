import { isolationSuite } from './support/tenancy.ts';
import { consolidationChecks } from './support/tenancy-consolidation.ts';

isolationSuite('consolidation (package forwarding)', consolidationChecks);
