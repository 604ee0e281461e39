import { isolationSuite } from './support/tenancy.ts';
import { boardChecks } from './support/tenancy-board.ts';

isolationSuite('the driver route board', boardChecks);
