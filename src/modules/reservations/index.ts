// The reservations module (bookable resources, public booking without an account, waitlists):
// what the composition root may use.

import type { Operation } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { ReservationBookings } from './bookings.ts';
import type { ContactSender } from './contact.ts';
import { reservationOperations } from './operations.ts';
import { ReservationResources } from './resources.ts';
import { LinkSigner } from './secrets.ts';

export { CONTACT_TOPIC, DEADLINE_TOPIC } from './bookings.ts';
export type { ContactMessage, ContactSender } from './contact.ts';
export { LogContactSender } from './contact.ts';

export interface ReservationSettings {
  baseUrl: string;
  bookingsPerAddressPerHour: number;
}

/** What the module needs of businesses (the accounts module): codes and time zones. */
export interface BusinessDirectory {
  idOf(db: Queryable, code: string): Promise<number | undefined>;
  codeOf(db: Queryable, businessId: number): Promise<string>;
  timeZoneOf(db: Queryable, businessId: number): Promise<string>;
}

export class ReservationsService {
  readonly resources: ReservationResources;
  readonly bookings: ReservationBookings;

  constructor(
    clock: Clock,
    settings: ReservationSettings,
    sender: ContactSender,
    businesses: BusinessDirectory,
  ) {
    this.resources = new ReservationResources(clock, settings, businesses);
    this.bookings = new ReservationBookings(clock, sender, new LinkSigner(), settings, (db, code) =>
      businesses.idOf(db, code),
    );
  }

  operations(): Operation[] {
    return reservationOperations(this.resources, this.bookings);
  }
}
