import { isolationSuite } from './support/tenancy.ts';
import { riderChecks } from './support/tenancy-riders.ts';

isolationSuite('instant riders', riderChecks);
