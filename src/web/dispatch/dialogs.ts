import { answer } from '../shared/api.ts';
import { Dialog } from '../shared/dialog.ts';
import { html, useEffect, useState } from '../shared/ui.ts';
import type { BoardRoute } from './board.ts';
import type { ConsoleContext } from './context.ts';
import type { Violation } from './plan.ts';

/** Where an order goes: a route of the day and, optionally, its place in the route's stops to do. */
export function PlaceDialog(props: {
  context: ConsoleContext;
  title: string;
  routes: readonly BoardRoute[];
  initialRoute?: number;
  onPlace: (routeId: number, position: number | undefined) => void;
  onClose: () => void;
}) {
  const { t } = props.context;
  const [routeId, setRouteId] = useState(props.initialRoute ?? props.routes[0]?.id ?? 0);
  const [position, setPosition] = useState('');
  const submit = (event: Event) => {
    event.preventDefault();
    const at = Number(position);
    props.onPlace(routeId, Number.isInteger(at) && at > 0 ? at : undefined);
  };
  return html`<${Dialog} title=${props.title} closeLabel=${t('cancel')} onClose=${props.onClose}>
    <form class="stack" onSubmit=${submit}>
      <label for="place-route">${t('chooseRoute')}</label>
      <select id="place-route" value=${routeId} onChange=${(event: Event) => setRouteId(Number((event.target as HTMLSelectElement).value))}>
        ${props.routes.map(
          (route) =>
            html`<option value=${route.id}>
              ${t('routeLabel', { number: props.context.routeNumber(route.id) })} · ${route.driver.name}
            </option>`,
        )}
      </select>
      <label for="place-position">${t('positionLabel')}</label>
      <input
        id="place-position"
        type="number"
        min="1"
        inputmode="numeric"
        aria-describedby="place-position-hint"
        value=${position}
        onInput=${(event: Event) => setPosition((event.target as HTMLInputElement).value)}
      />
      <p id="place-position-hint" class="meta">${t('positionHint')}</p>
      <button type="submit">${t('apply')}</button>
    </form>
  <//>`;
}

/** The rules an edit would break, each in words, with the choice to make it anyway. */
export function ViolationsDialog(props: {
  context: ConsoleContext;
  violations: readonly Violation[];
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = props.context;
  return html`<${Dialog}
    title=${t('violationsTitle', { count: props.violations.length })}
    closeLabel=${t('cancel')}
    onClose=${props.onClose}
  >
    <ul class="violations">
      ${props.violations.map((violation) => html`<li>${violationText(props.context, violation)}</li>`)}
    </ul>
    <p class="actions"><button type="button" onClick=${props.onConfirm}>${t('confirmAnyway')}</button></p>
  <//>`;
}

export function violationText(context: ConsoleContext, violation: Violation): string {
  const { t } = context;
  const order =
    violation.order_id !== undefined ? context.live.orderRef(violation.order_id, violation.route_id) : '';
  switch (violation.kind) {
    case 'time_window':
      return t('violation_time_window', { order, minutes: violation.late_minutes ?? 0 });
    case 'capacity':
      return t('violation_capacity', { over: violation.over ?? 0, dimension: violation.dimension ?? '' });
    case 'shift':
      return t('violation_shift', { minutes: violation.over_minutes ?? 0 });
    case 'pickup_after_delivery':
      return t('violation_pickup_after_delivery', { order });
    case 'skills':
      return t('violation_skills', { order, skills: (violation.missing_skills ?? []).join(', ') });
  }
}

/**
 * A route's actions: lock or unlock, optimise, change its driver or vehicle, publish it to a
 * fleet's route board or take it back from one. Each is the API's operation; the API says no.
 */
export function RouteActionsDialog(props: {
  context: ConsoleContext;
  route: BoardRoute;
  drivers: ReadonlyArray<{ id: number; name: string }>;
  fleets: ReadonlyArray<{ id: number; name: string }>;
  onClose: () => void;
}) {
  const { context, route } = props;
  const { t, edits, api } = context;
  const [driverId, setDriverId] = useState(route.driver.id);
  const [vehicleId, setVehicleId] = useState(route.vehicle_id === null ? '' : String(route.vehicle_id));
  const [vehicles, setVehicles] = useState<ReadonlyArray<{ id: number; name: string; active: boolean }>>([]);
  const [fleetId, setFleetId] = useState(props.fleets[0]?.id ?? 0);
  useEffect(() => {
    answer(api.GET('/v1/client/vehicles'))
      .then((found) => setVehicles(found.vehicles))
      .catch(() => setVehicles([]));
  }, []);
  const run = async (make: () => Promise<boolean>) => {
    if (await make()) props.onClose();
  };
  const submit = (make: () => Promise<boolean>) => (event: Event) => {
    event.preventDefault();
    void run(make);
  };
  const pending = route.stops
    .filter((stop) => stop.state === 'pending')
    .map((stop) => ({ order_id: stop.order_id, leg: stop.leg }));
  const onBoard = context.boardEntry(route.id);
  const chosenVehicle = vehicleId === '' ? null : Number(vehicleId);
  const chosen = (event: Event) => (event.target as HTMLSelectElement).value;
  return html`<${Dialog}
    title=${t('routeActions', { number: context.routeNumber(route.id) })}
    closeLabel=${t('close')}
    onClose=${props.onClose}
  >
    <p class="actions">
      <button type="button" onClick=${() => run(() => context.edit(edits.lock(route, !route.locked)))}>
        ${route.locked ? t('unlock') : t('lock')}
      </button>
      <button type="button" onClick=${() => run(() => context.edit(edits.optimise(route, pending)))}>
        ${t('optimise')}
      </button>
    </p>
    <form class="stack" onSubmit=${submit(() => context.edit(edits.driver(route, driverId, route.driver.id)))}>
      <label for="route-driver">${t('driverLabel')}</label>
      <select id="route-driver" value=${driverId} onChange=${(event: Event) => setDriverId(Number(chosen(event)))}>
        ${props.drivers.map((driver) => html`<option value=${driver.id}>${driver.name}</option>`)}
      </select>
      <button type="submit" disabled=${driverId === route.driver.id}>${t('changeDriver')}</button>
    </form>
    <form
      class="stack"
      onSubmit=${submit(() => context.edit(edits.vehicle(route, chosenVehicle, route.vehicle_id)))}
    >
      <label for="route-vehicle">${t('vehicleLabel')}</label>
      <select id="route-vehicle" value=${vehicleId} onChange=${(event: Event) => setVehicleId(chosen(event))}>
        <option value="">${t('noVehicle')}</option>
        ${vehicles
          .filter((vehicle) => vehicle.active || vehicle.id === route.vehicle_id)
          .map((vehicle) => html`<option value=${vehicle.id}>${vehicle.name}</option>`)}
      </select>
      <button type="submit" disabled=${chosenVehicle === route.vehicle_id}>${t('changeVehicle')}</button>
    </form>
    ${
      onBoard
        ? html`<p class="actions">
            <span class="meta">${t('onFleetBoard', { fleet: onBoard.fleet })}</span>
            <button
              type="button"
              onClick=${() => run(() => context.edit(edits.pullBack(route.id, onBoard.fleet_id)))}
            >
              ${t('pullBack')}
            </button>
          </p>`
        : props.fleets.length === 0
          ? html`<p class="meta">${t('noFleets')}</p>`
          : html`<form class="stack" onSubmit=${submit(() => context.edit(edits.publish(route.id, fleetId)))}>
              <label for="route-fleet">${t('fleetLabel')}</label>
              <select id="route-fleet" value=${fleetId} onChange=${(event: Event) => setFleetId(Number(chosen(event)))}>
                ${props.fleets.map((fleet) => html`<option value=${fleet.id}>${fleet.name}</option>`)}
              </select>
              <button type="submit">${t('publish')}</button>
            </form>`
    }
  <//>`;
}
