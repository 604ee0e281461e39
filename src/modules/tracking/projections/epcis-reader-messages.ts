import type { MessageParams } from '../../../platform/errors.ts';
import { fillTemplate, type Language } from '../../../platform/i18n/index.ts';

/**
 * What the EPCIS reader says of a part of a document it cannot read, in every supported language.
 * EPCIS names (`ObjectEvent`, `epcList`, `bizStep`) and values stay as they are.
 */
const en = {
  not_a_document: 'Expected an EPCIS document (a JSON object).',
  events_not_a_list: 'Expected the list of events (an array).',
  event_not_an_object: 'Expected an event (a JSON object).',
  not_an_object_event: 'Only ObjectEvents can be read, not {type}.',
  epc_list_missing: 'Expected the list of EPCs naming the parcel.',
  several_parcels: 'An event may name one parcel only: send one ObjectEvent per parcel.',
  no_parcel: 'No tracking number URI or SSCC among the EPCs.',
  bad_event_time: 'Expected an ISO 8601 date-time with an offset.',
  bad_time_zone_offset: 'Expected an offset such as +01:00.',
  unknown_status_code: 'Expected a code of the OTEP codebook or an experimental x- code.',
  no_status_code: 'No OTEP status code for bizStep {biz_step} and disposition {disposition}.',
  expected_one_of: 'Expected one of: {values}.',
  expected_url_list: 'Expected a list of URLs.',
  expected_object: 'Expected an object.',
  expected_string: 'Expected a string.',
  expected_number: 'Expected a number.',
};

export type EpcisProblem = keyof typeof en;
type EpcisMessages = Record<EpcisProblem, string>;

const fr: EpcisMessages = {
  not_a_document: 'Un document EPCIS (un objet JSON) est attendu.',
  events_not_a_list: 'La liste des événements (un tableau) est attendue.',
  event_not_an_object: 'Un événement (un objet JSON) est attendu.',
  not_an_object_event: 'Seuls les ObjectEvents peuvent être lus, pas {type}.',
  epc_list_missing: 'La liste des EPC désignant le colis est attendue.',
  several_parcels: 'Un événement ne peut désigner qu’un colis : envoyez un ObjectEvent par colis.',
  no_parcel: 'Aucune URI de numéro de suivi ni aucun SSCC parmi les EPC.',
  bad_event_time: 'Une date-heure ISO 8601 avec décalage est attendue.',
  bad_time_zone_offset: 'Un décalage comme +01:00 est attendu.',
  unknown_status_code: 'Un code du référentiel OTEP ou un code expérimental x- est attendu.',
  no_status_code: 'Aucun code de statut OTEP pour le bizStep {biz_step} et la disposition {disposition}.',
  expected_one_of: 'L’une de ces valeurs est attendue : {values}.',
  expected_url_list: 'Une liste d’URL est attendue.',
  expected_object: 'Un objet est attendu.',
  expected_string: 'Une chaîne de caractères est attendue.',
  expected_number: 'Un nombre est attendu.',
};

const de: EpcisMessages = {
  not_a_document: 'Erwartet wird ein EPCIS-Dokument (ein JSON-Objekt).',
  events_not_a_list: 'Erwartet wird die Liste der Ereignisse (ein Array).',
  event_not_an_object: 'Erwartet wird ein Ereignis (ein JSON-Objekt).',
  not_an_object_event: 'Nur ObjectEvents können gelesen werden, nicht {type}.',
  epc_list_missing: 'Erwartet wird die Liste der EPCs, die das Paket benennen.',
  several_parcels: 'Ein Ereignis darf nur ein Paket benennen: Senden Sie ein ObjectEvent pro Paket.',
  no_parcel: 'Unter den EPCs ist weder eine Sendungsnummer-URI noch eine SSCC.',
  bad_event_time: 'Erwartet wird ein ISO-8601-Zeitpunkt mit Versatz.',
  bad_time_zone_offset: 'Erwartet wird ein Versatz wie +01:00.',
  unknown_status_code: 'Erwartet wird ein Code aus dem OTEP-Codebuch oder ein experimenteller x-Code.',
  no_status_code: 'Kein OTEP-Statuscode für bizStep {biz_step} und disposition {disposition}.',
  expected_one_of: 'Erwartet wird einer der Werte: {values}.',
  expected_url_list: 'Erwartet wird eine Liste von URLs.',
  expected_object: 'Erwartet wird ein Objekt.',
  expected_string: 'Erwartet wird eine Zeichenkette.',
  expected_number: 'Erwartet wird eine Zahl.',
};

const es: EpcisMessages = {
  not_a_document: 'Se espera un documento EPCIS (un objeto JSON).',
  events_not_a_list: 'Se espera la lista de eventos (un array).',
  event_not_an_object: 'Se espera un evento (un objeto JSON).',
  not_an_object_event: 'Solo se pueden leer ObjectEvents, no {type}.',
  epc_list_missing: 'Se espera la lista de EPC que nombran el paquete.',
  several_parcels: 'Un evento solo puede nombrar un paquete: envíe un ObjectEvent por paquete.',
  no_parcel: 'Ninguna URI de número de seguimiento ni SSCC entre los EPC.',
  bad_event_time: 'Se espera una fecha y hora ISO 8601 con desfase.',
  bad_time_zone_offset: 'Se espera un desfase como +01:00.',
  unknown_status_code: 'Se espera un código del catálogo OTEP o un código experimental x-.',
  no_status_code: 'Ningún código de estado OTEP para bizStep {biz_step} y disposition {disposition}.',
  expected_one_of: 'Se espera uno de: {values}.',
  expected_url_list: 'Se espera una lista de URL.',
  expected_object: 'Se espera un objeto.',
  expected_string: 'Se espera una cadena.',
  expected_number: 'Se espera un número.',
};

const zhHans: EpcisMessages = {
  not_a_document: '应为 EPCIS 文档（JSON 对象）。',
  events_not_a_list: '应为事件列表（数组）。',
  event_not_an_object: '应为事件（JSON 对象）。',
  not_an_object_event: '只能读取 ObjectEvent，不能读取 {type}。',
  epc_list_missing: '应为标识包裹的 EPC 列表。',
  several_parcels: '一个事件只能标识一个包裹：请为每个包裹发送一个 ObjectEvent。',
  no_parcel: 'EPC 中既没有运单号 URI，也没有 SSCC。',
  bad_event_time: '应为带时区偏移的 ISO 8601 日期时间。',
  bad_time_zone_offset: '应为类似 +01:00 的时区偏移。',
  unknown_status_code: '应为 OTEP 代码表中的代码或实验性的 x- 代码。',
  no_status_code: 'bizStep {biz_step} 与 disposition {disposition} 没有对应的 OTEP 状态码。',
  expected_one_of: '应为以下之一：{values}。',
  expected_url_list: '应为 URL 列表。',
  expected_object: '应为对象。',
  expected_string: '应为字符串。',
  expected_number: '应为数字。',
};

const zhHant: EpcisMessages = {
  not_a_document: '應為 EPCIS 文件（JSON 物件）。',
  events_not_a_list: '應為事件清單（陣列）。',
  event_not_an_object: '應為事件（JSON 物件）。',
  not_an_object_event: '只能讀取 ObjectEvent，不能讀取 {type}。',
  epc_list_missing: '應為標識包裹的 EPC 清單。',
  several_parcels: '一個事件只能標識一個包裹：請為每個包裹傳送一個 ObjectEvent。',
  no_parcel: 'EPC 中既沒有追蹤號碼 URI，也沒有 SSCC。',
  bad_event_time: '應為帶時區偏移的 ISO 8601 日期時間。',
  bad_time_zone_offset: '應為類似 +01:00 的時區偏移。',
  unknown_status_code: '應為 OTEP 代碼表中的代碼或實驗性的 x- 代碼。',
  no_status_code: 'bizStep {biz_step} 與 disposition {disposition} 沒有對應的 OTEP 狀態碼。',
  expected_one_of: '應為以下之一：{values}。',
  expected_url_list: '應為 URL 清單。',
  expected_object: '應為物件。',
  expected_string: '應為字串。',
  expected_number: '應為數字。',
};

const EPCIS_MESSAGES: Record<Language, EpcisMessages> = {
  en,
  'zh-Hans': zhHans,
  'zh-Hant': zhHant,
  fr,
  de,
  es,
};

export function epcisMessage(problem: EpcisProblem, lang: Language, params: MessageParams = {}): string {
  return fillTemplate(EPCIS_MESSAGES[lang][problem], params);
}

/** For the consistency test: every language's table. */
export function epcisMessageTables(): Readonly<Record<Language, EpcisMessages>> {
  return EPCIS_MESSAGES;
}
