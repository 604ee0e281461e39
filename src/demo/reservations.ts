import type { OperationContext } from '../platform/catalog/operation.ts';
import type { Services } from '../services.ts';

/**
 * The demo's bookable resource: the parcel pickup counter at Gare de Lyon, every half hour on
 * weekdays from 9:00 to 12:00, two people a slot, a waitlist behind full slots. Its booking page
 * is public: whoever runs the demo books there and reads the code in the service's log
 * (the log contact sender), as docs/reservations.md shows.
 */
export async function seedDemoReservations(services: Services, admin: OperationContext) {
  const today = admin.clock.now().toISOString().slice(0, 10);
  const { resource } = await services.reservations.resources.create(admin, {
    name: 'Parcel pickup counter, Gare de Lyon',
    kind: 'pickup_counter',
    rrule: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9,10,11;BYMINUTE=0,30;BYSECOND=0',
    starts_on: today,
    slot_minutes: 30,
    capacity: 2,
    offer_minutes: 60,
    waitlist: true,
    published: true,
  });
  return { resource_id: resource.id, booking_page: resource.booking_page };
}
