import { isolationSuite } from './support/tenancy.ts';
import { routeChecks } from './support/tenancy-routes.ts';

isolationSuite('drivers, routes, skills and contractors', routeChecks);
