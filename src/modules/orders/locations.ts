import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/errors.ts';
import { fillTemplate, type Language } from '../../platform/i18n/index.ts';
import { envelopeOf, type PageQuery, pageWindow } from '../../platform/pagination.ts';
import type { AddressesService } from '../addresses/index.ts';
import { diff, type OrderJournal } from './journal.ts';
import type { OrderQueries } from './queries.ts';
import * as repo from './repository.ts';
import type { OrderView } from './schemas.ts';
import { BEFORE_PICKUP, ORDER_STATUSES, type OrderStatus, TERMINAL_STATUSES } from './statuses.ts';
import type { Address } from './tables.ts';
import { toViews } from './views.ts';

/** Where an order places things on the map: the addresses module's geocoder (own places, then GEOCODER_URL). */
export type AddressPlaces = Pick<AddressesService, 'geocode'>;

export const LEGS = ['dropoff', 'pickup'] as const;
export type Leg = (typeof LEGS)[number];

/**
 * While a leg's location may change. The pickup only before the order is picked up: after it,
 * the pickup is history. The drop-off until the order goes out for delivery: once a driver is on
 * the way, moving the point under them would send them elsewhere than the stop they were given;
 * an end state is history too.
 */
const CHANGEABLE: Record<Leg, readonly OrderStatus[]> = {
  pickup: BEFORE_PICKUP,
  dropoff: ['NEW_ORDER', 'HOLD', 'PLANNED', 'PICKED_UP', 'AT_WAREHOUSE', 'FAILED_ATTEMPT'],
};

/** The statuses an order may need a location in: any but the end states. */
const OPEN_STATUSES = ORDER_STATUSES.filter((status) => !TERMINAL_STATUSES.includes(status));

type Placeable = Pick<repo.StoredOrder, 'family' | 'type' | 'carrier' | 'pickup' | 'dropoff'>;

/**
 * The legs planning needs on the map: the drop-off of a D or P2P order, the pickup of a P or P2P
 * order. Only local-delivery orders the business delivers itself are planned; others need none.
 */
export function neededLegs(order: Pick<Placeable, 'family' | 'type' | 'carrier'>): Leg[] {
  if (order.family !== 'local_delivery' || order.carrier !== null) return [];
  if (order.type === 'P') return ['pickup'];
  if (order.type === 'P2P') return ['dropoff', 'pickup'];
  return ['dropoff'];
}

/** The needed legs without coordinates. */
export function missingLegs(order: Placeable): Leg[] {
  return neededLegs(order).filter((leg) => !isPlaced(order[leg]));
}

function isPlaced(address: Address | null | undefined): boolean {
  return typeof address?.lat === 'number' && typeof address?.lng === 'number';
}

/** A warning of an order created, in the caller's language. */
export interface OrderWarning {
  code: 'location_missing';
  field: Leg;
  order_id: number;
  message: string;
}

/** What an order created without a place for a needed leg is told: created, but not plannable yet. */
export function locationWarnings(
  order: Pick<OrderView, 'id' | 'family' | 'type' | 'carrier' | 'pickup' | 'dropoff'>,
  lang: Language,
): OrderWarning[] {
  const placeable = { ...order, carrier: order.carrier ?? null, type: order.type ?? null };
  return missingLegs(placeable).map((leg) => ({
    code: 'location_missing' as const,
    field: leg,
    order_id: order.id,
    message: MESSAGES[lang][leg],
  }));
}

export interface SetLocationInput {
  order_id: number;
  leg?: Leg;
  lat?: number;
  lng?: number;
  address?: Address;
}

/** Orders that cannot be placed on the map: placing them at creation, listing them, fixing them in place. */
export class OrderLocations {
  constructor(
    private readonly clock: Clock,
    private readonly journal: OrderJournal,
    private readonly queries: OrderQueries,
    private readonly places: AddressPlaces,
  ) {}

  /**
   * The needed legs of an order being created, placed where they have no coordinates yet, from
   * the business's own places only: a public geocoder is spaced a second a call, far too slow for
   * a bulk of orders inside their transaction. A place nobody knows leaves the leg as given: the
   * order is still taken, with a warning, and set_order_location places it later.
   */
  async placeNew<T extends Placeable>(ctx: OperationContext, order: T): Promise<T> {
    const placed = { ...order };
    for (const leg of missingLegs(order)) {
      const address = order[leg];
      if (!address) continue;
      const found = await this.locate(ctx, address, { ownDataOnly: true });
      if (found) placed[leg] = { ...address, lat: found.lat, lng: found.lng };
    }
    return placed;
  }

  /** What the caller is told of orders just created that cannot be placed yet. */
  warningsOf(ctx: OperationContext, orders: readonly OrderView[]): OrderWarning[] {
    return orders.flatMap((order) => locationWarnings(order, ctx.lang));
  }

  /** Open orders (not in an end state) whose needed leg has no coordinates, newest first. */
  async needing(ctx: OperationContext, query: PageQuery & { scheduled_date?: string }) {
    const businessId = businessOf(ctx);
    const filter: repo.OrderFilter = {
      statuses: OPEN_STATUSES,
      scheduledDate: query.scheduled_date,
      family: 'local_delivery',
      selfDelivery: true,
      lacksLocation: true,
    };
    const [total, rows] = await Promise.all([
      repo.countOrders(ctx.db, businessId, filter),
      repo.listOrders(ctx.db, businessId, filter, pageWindow(query)),
    ]);
    const views = await toViews(ctx.db, businessId, rows);
    return {
      result: true as const,
      ...envelopeOf(query, total),
      orders: rows.map((row, index) => ({ missing: missingLegs(row), order: views[index]! })),
    };
  }

  /**
   * Places one leg of an order on the map in place: by coordinates, or by a corrected address
   * placed as creation places it. The order keeps its id, reference and tracking numbers; the
   * audit trail records the address before and after. Everything is checked before anything is
   * written.
   */
  async set(ctx: OperationContext, input: SetLocationInput) {
    const businessId = businessOf(ctx);
    const order = await repo.findOrder(ctx.db, businessId, input.order_id, { lock: true });
    if (!order) throw new AppError('ORDER_NOT_FOUND', { params: { order: input.order_id } });
    const leg = input.leg ?? missingLegs(order)[0] ?? neededLegs(order)[0] ?? 'dropoff';
    const before = order[leg];
    if (!before) {
      throw new AppError('ORDER_LEG_UNUSED', { params: { order: order.order_ref, leg }, details: { leg } });
    }
    if (!CHANGEABLE[leg].includes(order.status)) {
      throw new AppError('ORDER_LOCATION_LOCKED', {
        params: { order: order.order_ref, leg, status: order.status },
        details: { leg, status: order.status, allowed: CHANGEABLE[leg] },
      });
    }
    const after = input.address
      ? await this.corrected(ctx, before, input.address)
      : { ...before, lat: input.lat!, lng: input.lng! };
    const at = this.clock.now();
    await repo.updateOrder(
      ctx.db,
      businessId,
      order.id,
      { [leg]: after, updated_at: at },
      this.journal.rows(ctx, businessId, at, [
        { orderId: order.id, action: 'location_updated', changes: diff(order, { [leg]: after }) },
      ]),
    );
    // A stop keeps its place in the route, but the route's times were worked out for the old point.
    const onRoute = order.route_id;
    return {
      result: true as const,
      leg,
      order: await this.queries.detail(ctx, order.id),
      route_id: onRoute,
      route_times_stale: onRoute !== null,
      hint: onRoute === null ? null : fillTemplate(MESSAGES[ctx.lang].stale, { route: onRoute }),
    };
  }

  /**
   * A corrected address, placed: where it says when it gives coordinates, else by the geocoder.
   * The contact (name, phone) stays as it was unless the correction gives one: it is the person's,
   * not the place's.
   */
  private async corrected(ctx: OperationContext, before: Address, address: Address): Promise<Address> {
    const contact = { name: address.name ?? before.name, phone: address.phone ?? before.phone };
    const withContact = { ...address, ...withoutUndefined(contact) };
    if (isPlaced(address)) return withContact;
    const found = await this.locate(ctx, address);
    if (!found) {
      throw new AppError('ADDRESS_NOT_PLACEABLE', { params: { address: textOf(address) } });
    }
    return { ...withContact, lat: found.lat, lng: found.lng };
  }

  private async locate(ctx: OperationContext, address: Address, options: { ownDataOnly?: boolean } = {}) {
    const answer = await this.places.geocode(
      ctx,
      { address: textOf(address), country: address.country },
      options,
    );
    return answer.place;
  }
}

/** One line for the geocoder: the street line, then postal code and city (line2 is a flat, no place). */
function textOf(address: Address): string {
  const town = [address.postal_code, address.city].filter(Boolean).join(' ');
  return [address.line1, town].filter(Boolean).join(', ');
}

function withoutUndefined<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** The warnings and hints of this part, in every language the service speaks. */
const MESSAGES: Record<Language, { dropoff: string; pickup: string; stale: string }> = {
  en: {
    dropoff:
      'The drop-off address could not be placed on the map: the order cannot be planned until it has a location (set_order_location).',
    pickup:
      'The pickup address could not be placed on the map: the order cannot be planned until it has a location (set_order_location).',
    stale:
      'The order stays on route {route}, but the route was timed for the old point: re-sequence the route so its times hold.',
  },
  fr: {
    dropoff:
      "L'adresse de livraison n'a pas pu être placée sur la carte : la commande ne pourra être planifiée qu'une fois localisée (set_order_location).",
    pickup:
      "L'adresse d'enlèvement n'a pas pu être placée sur la carte : la commande ne pourra être planifiée qu'une fois localisée (set_order_location).",
    stale:
      "La commande reste sur la tournée {route}, mais ses horaires ont été calculés pour l'ancien point : reséquencez la tournée pour qu'ils tiennent.",
  },
  de: {
    dropoff:
      'Die Lieferadresse konnte nicht auf der Karte verortet werden: Der Auftrag kann erst geplant werden, wenn er einen Standort hat (set_order_location).',
    pickup:
      'Die Abholadresse konnte nicht auf der Karte verortet werden: Der Auftrag kann erst geplant werden, wenn er einen Standort hat (set_order_location).',
    stale:
      'Der Auftrag bleibt auf Tour {route}, aber ihre Zeiten wurden für den alten Punkt berechnet: Ordnen Sie die Tour neu, damit sie stimmen.',
  },
  es: {
    dropoff:
      'La dirección de entrega no se pudo situar en el mapa: el pedido no podrá planificarse hasta que tenga una ubicación (set_order_location).',
    pickup:
      'La dirección de recogida no se pudo situar en el mapa: el pedido no podrá planificarse hasta que tenga una ubicación (set_order_location).',
    stale:
      'El pedido sigue en la ruta {route}, pero sus horarios se calcularon para el punto anterior: vuelva a secuenciar la ruta para que se cumplan.',
  },
  'zh-Hans': {
    dropoff: '无法在地图上定位送货地址：订单在有位置之前无法排线（set_order_location）。',
    pickup: '无法在地图上定位取货地址：订单在有位置之前无法排线（set_order_location）。',
    stale: '订单仍在线路 {route} 上，但该线路的时间是按旧位置计算的：请重新排序该线路以使时间有效。',
  },
  'zh-Hant': {
    dropoff: '無法在地圖上定位送貨地址：訂單在有位置之前無法排線（set_order_location）。',
    pickup: '無法在地圖上定位取貨地址：訂單在有位置之前無法排線（set_order_location）。',
    stale: '訂單仍在路線 {route} 上，但該路線的時間是按舊位置計算的：請重新排序該路線以使時間有效。',
  },
};
