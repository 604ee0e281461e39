import { after } from 'node:test';
import { isolationSuite } from './support/tenancy.ts';
import { closeThirdPartyStandIn, thirdPartyChecks } from './support/tenancy-third-party.ts';

isolationSuite('third-party delivery', thirdPartyChecks);
after(() => closeThirdPartyStandIn());
