import type { OperationContext } from '../platform/catalog/operation.ts';
import { addDays } from '../platform/clock.ts';
import type { Services } from '../services.ts';

/** The demo's own drivers who make up its fleet, the demo driver captaining it. */
const CREW = ['driver2@demo.test', 'driver3@demo.test'];
/** What the business pays for each of the crew's routes it puts on today's board, in cents. */
const BOARD_PAY_MINOR = [4500, 3800];

/**
 * A fleet for the driver side of dispatch: "Paris Est", captained by the demo driver, with a
 * Monday-to-Saturday day shift for the week (the crew signed up from tomorrow on: today's shift
 * has begun) and the crew's routes of today on its board, open. The crew has no shift today, so
 * a driver's claim is refused (BOARD_OFF_SHIFT): the captain or staff hand them over
 * (docs/route-board.md).
 */
export async function seedDemoFleet(services: Services, admin: OperationContext, captainId: number) {
  const { accounts, dispatch, fleetCalendar, fleets, routeBoard } = services;
  const crew = await Promise.all(CREW.map((email) => accounts.userByEmail(admin.db, email)));
  const { fleet } = await fleets.create(admin, 'Paris Est');
  await fleets.setMember(admin, { fleet_id: fleet.id, driver_id: captainId, role: 'captain' });
  for (const driver of crew)
    await fleets.setMember(admin, { fleet_id: fleet.id, driver_id: driver.id, role: 'driver' });

  const today = await dispatch.today(admin.db, admin.business!);
  await fleetCalendar.createPattern(admin, {
    fleet_id: fleet.id,
    weekdays: [1, 2, 3, 4, 5, 6],
    start: '08:00',
    end: '18:00',
    vehicle_kind: 'van',
    slots: 3,
    valid_from: today,
  });
  const week = await fleetCalendar.shifts(admin, {
    fleet_id: fleet.id,
    from: addDays(today, 1),
    to: addDays(today, 6),
  });
  for (const shift of week.shifts) {
    for (const driver of [captainId, ...crew.map((member) => member.id)]) {
      await fleetCalendar.signUp(admin, { fleet_id: fleet.id, shift_id: shift.id, driver_id: driver });
    }
  }

  const todays = await dispatch.routes(admin, { date: today });
  for (const [n, driver] of crew.entries()) {
    const route = todays.find(
      (candidate) => candidate.driver?.id === driver.id && candidate.status === 'planned',
    );
    if (!route) continue;
    await routeBoard.publish(admin, {
      fleet_id: fleet.id,
      route_id: route.id,
      pay: { amount_minor: BOARD_PAY_MINOR[n]!, currency: 'EUR' },
    });
  }
}
