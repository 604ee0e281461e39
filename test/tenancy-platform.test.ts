import { isolationSuite } from './support/tenancy.ts';
import { platformChecks } from './support/tenancy-platform.ts';

isolationSuite('alliances, tracking, approvals, modules, settings, webhooks and apps', platformChecks);
