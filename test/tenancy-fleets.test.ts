import { isolationSuite } from './support/tenancy.ts';
import { fleetChecks } from './support/tenancy-fleets.ts';

isolationSuite('fleets and their shift calendars', fleetChecks);
