import { isolationSuite } from './support/tenancy.ts';
import { suggestionChecks } from './support/tenancy-suggestions.ts';

isolationSuite('dispatcher suggestions', suggestionChecks);
