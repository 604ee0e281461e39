import type { Language } from '../../platform/i18n/languages.ts';

/** The figures a digest's sentence is made of. */
export interface DigestWords {
  date: string;
  ordersIn: number;
  /** Orders in, less those of the same weekday a week before: a change, never a count. */
  ordersInChange: number;
  delivered: number;
  failed: number;
  returned: number;
  cancelled: number;
  onTimePercent: number | null;
  onTimeChangePoints: number | null;
  routes: number;
  drivers: number;
  exceptions: number;
}

const signed = (n: number) => (n > 0 ? `+${n}` : `${n}`);

/** A count with its word in the number the language gives it: "1 route", "2 routes", "0 tournée". */
function counted(lang: Language) {
  const rules = new Intl.PluralRules(lang);
  return (count: number, one: string, other: string) =>
    `${count} ${rules.select(count) === 'one' ? one : other}`;
}

/** The weekday and date as the language writes it (the date is a calendar day: no time zone shift). */
function longDate(day: string, lang: Language): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'full', timeZone: 'UTC' }).format(
    new Date(`${day}T12:00:00Z`),
  );
}

type Sentence = (w: DigestWords, date: string) => string;

const SENTENCES: Record<Language, Sentence> = {
  en: (w, date, n = counted('en')) =>
    `${date}: ${n(w.ordersIn, 'order', 'orders')} in (${w.ordersInChange === 0 ? 'as many as on' : `${signed(w.ordersInChange)} against`} the same day last week), ` +
    `${w.delivered} delivered, ${n(w.failed, 'failed attempt', 'failed attempts')}, ${w.returned} returned, ${w.cancelled} cancelled. ` +
    (w.onTimePercent === null
      ? 'No delivery with a time window. '
      : `On time: ${w.onTimePercent}%${w.onTimeChangePoints === null ? '' : ` (${signed(w.onTimeChangePoints)} points)`}. `) +
    `${n(w.routes, 'route', 'routes')} with ${n(w.drivers, 'driver', 'drivers')}; ` +
    `${n(w.exceptions, 'exception', 'exceptions')} to look at.`,
  fr: (w, date, n = counted('fr')) =>
    `${date} : ${n(w.ordersIn, 'commande reçue', 'commandes reçues')} (${w.ordersInChange === 0 ? 'autant que le' : `${signed(w.ordersInChange)} par rapport au`} même jour la semaine dernière), ` +
    `${n(w.delivered, 'livrée', 'livrées')}, ${n(w.failed, 'tentative échouée', 'tentatives échouées')}, ${n(w.returned, 'retournée', 'retournées')}, ${n(w.cancelled, 'annulée', 'annulées')}. ` +
    (w.onTimePercent === null
      ? 'Aucune livraison avec créneau. '
      : `À l’heure : ${w.onTimePercent} %${w.onTimeChangePoints === null ? '' : ` (${signed(w.onTimeChangePoints)} points)`}. `) +
    `${n(w.routes, 'tournée', 'tournées')} avec ${n(w.drivers, 'chauffeur', 'chauffeurs')} ; ` +
    `${n(w.exceptions, 'incident', 'incidents')} à examiner.`,
  de: (w, date, n = counted('de')) =>
    `${date}: ${n(w.ordersIn, 'Auftrag', 'Aufträge')} eingegangen (${w.ordersInChange === 0 ? 'so viele wie am' : `${signed(w.ordersInChange)} gegenüber dem`} gleichen Tag der Vorwoche), ` +
    `${w.delivered} zugestellt, ${n(w.failed, 'fehlgeschlagener Zustellversuch', 'fehlgeschlagene Zustellversuche')}, ${w.returned} retourniert, ${w.cancelled} storniert. ` +
    (w.onTimePercent === null
      ? 'Keine Zustellung mit Zeitfenster. '
      : `Pünktlich: ${w.onTimePercent} %${w.onTimeChangePoints === null ? '' : ` (${signed(w.onTimeChangePoints)} Punkte)`}. `) +
    `${n(w.routes, 'Tour', 'Touren')} mit ${n(w.drivers, 'Fahrer', 'Fahrern')}; ` +
    `${n(w.exceptions, 'Ausnahme', 'Ausnahmen')} zu prüfen.`,
  es: (w, date, n = counted('es')) =>
    `${date}: ${n(w.ordersIn, 'pedido recibido', 'pedidos recibidos')} (${w.ordersInChange === 0 ? 'tantos como el' : `${signed(w.ordersInChange)} respecto al`} mismo día de la semana pasada), ` +
    `${n(w.delivered, 'entregado', 'entregados')}, ${n(w.failed, 'intento fallido', 'intentos fallidos')}, ${n(w.returned, 'devuelto', 'devueltos')}, ${n(w.cancelled, 'cancelado', 'cancelados')}. ` +
    (w.onTimePercent === null
      ? 'Ninguna entrega con franja horaria. '
      : `A tiempo: ${w.onTimePercent} %${w.onTimeChangePoints === null ? '' : ` (${signed(w.onTimeChangePoints)} puntos)`}. `) +
    `${n(w.routes, 'ruta', 'rutas')} con ${n(w.drivers, 'conductor', 'conductores')}; ` +
    `${n(w.exceptions, 'incidencia', 'incidencias')} por revisar.`,
  'zh-Hans': (w, date) =>
    `${date}：新订单 ${w.ordersIn} 个（${w.ordersInChange === 0 ? '与上周同日持平' : `比上周同日 ${signed(w.ordersInChange)}`}），` +
    `已送达 ${w.delivered} 个，投递失败 ${w.failed} 次，退回 ${w.returned} 个，取消 ${w.cancelled} 个。` +
    (w.onTimePercent === null
      ? '没有带时间窗的送达。'
      : `准时率 ${w.onTimePercent}%${w.onTimeChangePoints === null ? '' : `（${signed(w.onTimeChangePoints)} 个百分点）`}。`) +
    `${w.routes} 条路线，${w.drivers} 名司机；${w.exceptions} 个异常待处理。`,
  'zh-Hant': (w, date) =>
    `${date}：新訂單 ${w.ordersIn} 張（${w.ordersInChange === 0 ? '與上週同日持平' : `比上週同日 ${signed(w.ordersInChange)}`}），` +
    `已送達 ${w.delivered} 張，投遞失敗 ${w.failed} 次，退回 ${w.returned} 張，取消 ${w.cancelled} 張。` +
    (w.onTimePercent === null
      ? '沒有帶時間窗的送達。'
      : `準時率 ${w.onTimePercent}%${w.onTimeChangePoints === null ? '' : `（${signed(w.onTimeChangePoints)} 個百分點）`}。`) +
    `${w.routes} 條路線，${w.drivers} 名司機；${w.exceptions} 個異常待處理。`,
};

/** The day in a dispatcher's words, in the caller's language. */
export function digestSentence(words: DigestWords, lang: Language): string {
  return SENTENCES[lang](words, longDate(words.date, lang));
}
