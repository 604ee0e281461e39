import { isolationSuite } from './support/tenancy.ts';
import { reservationChecks } from './support/tenancy-reservations.ts';

isolationSuite('reservations', reservationChecks);
