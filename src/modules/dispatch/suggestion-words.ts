import { fillTemplate, type Language } from '../../platform/i18n/index.ts';
import type { ReasonCode, Suggestion } from './suggestions.ts';

/** A suggestion's reason as its reader reads it, in the caller's language. */
export function reasonText(suggestion: Suggestion, lang: Language, driverName: string | undefined): string {
  return fillTemplate(REASONS[lang][suggestion.reason], {
    order: suggestion.order_id ?? '',
    route: suggestion.route_id ?? '',
    to_route: suggestion.to_route_id ?? '',
    driver: driverName ?? String(suggestion.driver_id ?? ''),
    meters: suggestion.added_distance_m ?? '',
    dimension: suggestion.dimension ?? '',
    over: suggestion.over ?? '',
    minutes: suggestion.late_minutes ?? '',
    stops: suggestion.late_stops ?? '',
  });
}

const REASONS: Record<Language, Record<ReasonCode, string>> = {
  en: {
    fits_slack:
      'Order {order} waits unplanned and fits route {route} without breaking a window, the capacity or the shift: it adds {meters} m.',
    move_fixes_overload:
      'Route {route} carries {over} more {dimension} than its vehicle takes; moving order {order} to route {to_route} relieves it without breaking a rule there.',
    no_single_move_fixes_overload:
      'Route {route} carries {over} more {dimension} than its vehicle takes, and no single order can move to another route without breaking a rule there: rebuild or edit the day by hand.',
    resequence_fixes_lateness:
      'Route {route} reaches {stops} stops after their window ({minutes} min late in all); visiting its pending stops in another order keeps every window.',
    move_fixes_lateness:
      'Route {route} reaches {stops} stops after their window ({minutes} min late in all); moving order {order} to route {to_route} keeps both routes on time.',
    no_single_move_fixes_lateness:
      'Route {route} reaches {stops} stops after their window ({minutes} min late in all), and neither a new order of its stops nor moving one order fixes it.',
    address_placed_after_hold:
      'Order {order} is held, and its address was placed on the map after it was held: if the address was the reason, release it.',
    shift_without_route:
      '{driver} has a shift on this day and no route, while orders wait unplanned: build a route for them.',
    shift_without_route_nothing_waiting:
      '{driver} has a shift on this day and no route, and no order waits to be planned.',
  },
  fr: {
    fits_slack:
      "La commande {order} attend d'être planifiée et tient dans la tournée {route} sans enfreindre de créneau, de capacité ni de service : elle ajoute {meters} m.",
    move_fixes_overload:
      'La tournée {route} transporte {over} {dimension} de plus que son véhicule ; déplacer la commande {order} vers la tournée {to_route} la soulage sans y enfreindre de règle.',
    no_single_move_fixes_overload:
      'La tournée {route} transporte {over} {dimension} de plus que son véhicule, et aucune commande seule ne peut passer sur une autre tournée sans y enfreindre de règle : reconstruisez ou modifiez la journée à la main.',
    resequence_fixes_lateness:
      'La tournée {route} arrive à {stops} arrêts après leur créneau ({minutes} min de retard au total) ; visiter ses arrêts en attente dans un autre ordre respecte tous les créneaux.',
    move_fixes_lateness:
      'La tournée {route} arrive à {stops} arrêts après leur créneau ({minutes} min de retard au total) ; déplacer la commande {order} vers la tournée {to_route} garde les deux tournées à l’heure.',
    no_single_move_fixes_lateness:
      "La tournée {route} arrive à {stops} arrêts après leur créneau ({minutes} min de retard au total), et ni un autre ordre de ses arrêts ni le déplacement d'une commande n'y remédie.",
    address_placed_after_hold:
      "La commande {order} est suspendue, et son adresse a été placée sur la carte après la suspension : si l'adresse en était la raison, libérez-la.",
    shift_without_route:
      "{driver} a un service ce jour et aucune tournée, alors que des commandes attendent d'être planifiées : construisez-lui une tournée.",
    shift_without_route_nothing_waiting:
      "{driver} a un service ce jour et aucune tournée, et aucune commande n'attend d'être planifiée.",
  },
  de: {
    fits_slack:
      'Auftrag {order} ist ungeplant und passt in Tour {route}, ohne ein Zeitfenster, die Kapazität oder die Schicht zu verletzen: Er fügt {meters} m hinzu.',
    move_fixes_overload:
      'Tour {route} lädt {over} {dimension} mehr, als ihr Fahrzeug fasst; Auftrag {order} auf Tour {to_route} zu verschieben entlastet sie, ohne dort eine Regel zu verletzen.',
    no_single_move_fixes_overload:
      'Tour {route} lädt {over} {dimension} mehr, als ihr Fahrzeug fasst, und kein einzelner Auftrag lässt sich auf eine andere Tour verschieben, ohne dort eine Regel zu verletzen: Planen Sie den Tag neu oder von Hand.',
    resequence_fixes_lateness:
      'Tour {route} erreicht {stops} Stopps nach ihrem Zeitfenster (insgesamt {minutes} Min. zu spät); eine andere Reihenfolge ihrer offenen Stopps hält alle Zeitfenster ein.',
    move_fixes_lateness:
      'Tour {route} erreicht {stops} Stopps nach ihrem Zeitfenster (insgesamt {minutes} Min. zu spät); Auftrag {order} auf Tour {to_route} zu verschieben hält beide Touren pünktlich.',
    no_single_move_fixes_lateness:
      'Tour {route} erreicht {stops} Stopps nach ihrem Zeitfenster (insgesamt {minutes} Min. zu spät), und weder eine andere Reihenfolge noch das Verschieben eines Auftrags behebt es.',
    address_placed_after_hold:
      'Auftrag {order} ist zurückgehalten, und seine Adresse wurde danach auf der Karte verortet: War die Adresse der Grund, geben Sie ihn frei.',
    shift_without_route:
      '{driver} hat an diesem Tag eine Schicht und keine Tour, während Aufträge ungeplant warten: Planen Sie eine Tour für sie.',
    shift_without_route_nothing_waiting:
      '{driver} hat an diesem Tag eine Schicht und keine Tour, und kein Auftrag wartet auf Planung.',
  },
  es: {
    fits_slack:
      'El pedido {order} espera sin planificar y cabe en la ruta {route} sin romper una franja, la capacidad ni el turno: añade {meters} m.',
    move_fixes_overload:
      'La ruta {route} lleva {over} {dimension} más de lo que admite su vehículo; mover el pedido {order} a la ruta {to_route} la alivia sin romper allí ninguna regla.',
    no_single_move_fixes_overload:
      'La ruta {route} lleva {over} {dimension} más de lo que admite su vehículo, y ningún pedido solo puede pasar a otra ruta sin romper allí una regla: vuelva a planificar o edite el día a mano.',
    resequence_fixes_lateness:
      'La ruta {route} llega a {stops} paradas después de su franja ({minutes} min de retraso en total); visitar sus paradas pendientes en otro orden respeta todas las franjas.',
    move_fixes_lateness:
      'La ruta {route} llega a {stops} paradas después de su franja ({minutes} min de retraso en total); mover el pedido {order} a la ruta {to_route} mantiene ambas rutas a tiempo.',
    no_single_move_fixes_lateness:
      'La ruta {route} llega a {stops} paradas después de su franja ({minutes} min de retraso en total), y ni otro orden de sus paradas ni mover un pedido lo arregla.',
    address_placed_after_hold:
      'El pedido {order} está retenido, y su dirección se situó en el mapa después de retenerlo: si la dirección era el motivo, libérelo.',
    shift_without_route:
      '{driver} tiene turno este día y ninguna ruta, mientras hay pedidos sin planificar: construya una ruta para ellos.',
    shift_without_route_nothing_waiting:
      '{driver} tiene turno este día y ninguna ruta, y ningún pedido espera planificación.',
  },
  'zh-Hans': {
    fits_slack: '订单 {order} 尚未规划，可放入路线 {route} 而不违反时间窗、容量或班次：增加 {meters} 米。',
    move_fixes_overload:
      '路线 {route} 的 {dimension} 超出车辆容量 {over}；把订单 {order} 移到路线 {to_route} 可解除超载，且不违反该路线的规则。',
    no_single_move_fixes_overload:
      '路线 {route} 的 {dimension} 超出车辆容量 {over}，且没有单个订单能移到其他路线而不违反规则：请重新规划或手动调整当天计划。',
    resequence_fixes_lateness:
      '路线 {route} 有 {stops} 个站点晚于时间窗到达（共迟 {minutes} 分钟）；调整其待办站点的顺序即可守住所有时间窗。',
    move_fixes_lateness:
      '路线 {route} 有 {stops} 个站点晚于时间窗到达（共迟 {minutes} 分钟）；把订单 {order} 移到路线 {to_route} 可使两条路线都准时。',
    no_single_move_fixes_lateness:
      '路线 {route} 有 {stops} 个站点晚于时间窗到达（共迟 {minutes} 分钟），重新排序或移动单个订单都无法解决。',
    address_placed_after_hold:
      '订单 {order} 处于暂扣状态，其地址在暂扣后已定位到地图上：如果地址是暂扣原因，请释放它。',
    shift_without_route: '{driver} 当天有班次但没有路线，而仍有订单待规划：请为他们规划一条路线。',
    shift_without_route_nothing_waiting: '{driver} 当天有班次但没有路线，且没有待规划的订单。',
  },
  'zh-Hant': {
    fits_slack: '訂單 {order} 尚未規劃，可放入路線 {route} 而不違反時間窗、容量或班次：增加 {meters} 公尺。',
    move_fixes_overload:
      '路線 {route} 的 {dimension} 超出車輛容量 {over}；把訂單 {order} 移到路線 {to_route} 可解除超載，且不違反該路線的規則。',
    no_single_move_fixes_overload:
      '路線 {route} 的 {dimension} 超出車輛容量 {over}，且沒有單一訂單能移到其他路線而不違反規則：請重新規劃或手動調整當天計畫。',
    resequence_fixes_lateness:
      '路線 {route} 有 {stops} 個站點晚於時間窗到達（共遲 {minutes} 分鐘）；調整其待辦站點的順序即可守住所有時間窗。',
    move_fixes_lateness:
      '路線 {route} 有 {stops} 個站點晚於時間窗到達（共遲 {minutes} 分鐘）；把訂單 {order} 移到路線 {to_route} 可使兩條路線都準時。',
    no_single_move_fixes_lateness:
      '路線 {route} 有 {stops} 個站點晚於時間窗到達（共遲 {minutes} 分鐘），重新排序或移動單一訂單都無法解決。',
    address_placed_after_hold:
      '訂單 {order} 處於暫扣狀態，其地址在暫扣後已定位到地圖上：如果地址是暫扣原因，請釋放它。',
    shift_without_route: '{driver} 當天有班次但沒有路線，而仍有訂單待規劃：請為他們規劃一條路線。',
    shift_without_route_nothing_waiting: '{driver} 當天有班次但沒有路線，且沒有待規劃的訂單。',
  },
};
