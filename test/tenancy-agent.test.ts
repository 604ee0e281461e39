import { isolationSuite } from './support/tenancy.ts';
import { agentChecks } from './support/tenancy-agent.ts';

isolationSuite('operations AI agent', agentChecks);
