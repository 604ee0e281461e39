import { isolationSuite } from './support/tenancy.ts';
import { placeChecks } from './support/tenancy-places.ts';

isolationSuite('maps, zones, datasets, points of interest and addresses', placeChecks);
