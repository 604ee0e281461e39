import { isolationSuite } from './support/tenancy.ts';
import { boardChecks } from './support/tenancy-board.ts';

isolationSuite('fleets and their route boards', boardChecks);
