import type { MessageParams } from '../../platform/errors.ts';
import { fillTemplate, type Language } from '../../platform/i18n/index.ts';

/**
 * The OTEP validator's messages, one per issue code, in every supported language. Field names
 * (`occurred_at`, `source.type`) and values stay as they are: they are what the caller must fix.
 * `{path}` is always available; other placeholders are filled by the check that reports the issue.
 */
const en = {
  timeline_not_object: 'The timeline must be a JSON object.',
  expected_object: '{path} must be a JSON object.',
  expected_string: '{path} must be a string.',
  expected_number: '{path} must be a number.',
  expected_boolean: '{path} must be true or false.',
  expected_string_array: '{path} must be an array of strings.',
  expected_positive_integer: '{path} must be a positive integer.',
  unsupported_otep_version:
    'OTEP version {version} is not supported; this service reads version {supported}.',
  unknown_profile: 'Unknown profile {profile}; known profiles: {profiles}.',
  missing_subject: 'subject is required: it names what the timeline tracks.',
  subject_without_identifier: 'The subject has no identifier; give at least one of: {identifiers}.',
  empty_identifier: '{path} is empty; an identifier needs a value.',
  bad_gs1_sscc: 'gs1_sscc must be exactly 18 digits.',
  events_not_array: 'events must be an array (it may be empty).',
  missing_occurred_at: 'occurred_at is required: when the event happened.',
  bad_occurred_at: 'occurred_at {value} is not a valid date-time; write it like 2026-11-02T10:30:00+01:00.',
  occurred_at_without_offset: 'occurred_at {value} has no time-zone offset; end it with Z or ±hh:mm.',
  bad_recorded_at: 'recorded_at {value} is not a date-time with an offset, like 2026-11-02T09:30:00Z.',
  missing_status_code: 'status_code is required.',
  unknown_status_code: 'Unknown status code {code}; use a codebook code or an experimental x- code.',
  experimental_status_code:
    'Status code {code} is experimental: it is accepted but not part of the codebook.',
  unknown_phase: 'Unknown phase {phase}; known phases: {phases}.',
  phase_mismatch: 'Phase {phase} disagrees with status code {code}, whose phase is {expected}.',
  bad_source_type: 'source.type must be one of: {types}.',
  bad_country: 'Country {value} is not an ISO 3166-1 alpha-2 code (two capital letters, like FR).',
  coordinate_out_of_range: '{path} must be between {min} and {max}.',
  bad_gln: 'gln must be a 13-digit GS1 Global Location Number.',
  bad_incident_reason: 'incident_reason.code must be one of: {reasons}.',
  event_after_terminal: 'This event happened after the terminal event {terminal}.',
  phase_backwards: 'The phase goes back from {from} to {to} without an exception or return in between.',
  events_not_sorted: 'Events are not sorted by occurred_at: this one happened before the previous one.',
  not_a_standard_projection:
    '{name} is not an external-standard projection, so it does not count toward level 2; standard projections: {standards}.',
};

export type IssueCode = keyof typeof en;
export type IssueMessages = Record<IssueCode, string>;

const fr: IssueMessages = {
  timeline_not_object: 'La chronologie doit être un objet JSON.',
  expected_object: '{path} doit être un objet JSON.',
  expected_string: '{path} doit être une chaîne de caractères.',
  expected_number: '{path} doit être un nombre.',
  expected_boolean: '{path} doit valoir true ou false.',
  expected_string_array: '{path} doit être un tableau de chaînes de caractères.',
  expected_positive_integer: '{path} doit être un entier positif.',
  unsupported_otep_version:
    'La version OTEP {version} n’est pas prise en charge ; ce service lit la version {supported}.',
  unknown_profile: 'Profil {profile} inconnu ; profils connus : {profiles}.',
  missing_subject: 'subject est obligatoire : il désigne ce que suit la chronologie.',
  subject_without_identifier: 'Le sujet n’a aucun identifiant ; indiquez au moins l’un de : {identifiers}.',
  empty_identifier: '{path} est vide ; un identifiant doit avoir une valeur.',
  bad_gs1_sscc: 'gs1_sscc doit comporter exactement 18 chiffres.',
  events_not_array: 'events doit être un tableau (éventuellement vide).',
  missing_occurred_at: 'occurred_at est obligatoire : le moment où l’événement s’est produit.',
  bad_occurred_at:
    'occurred_at {value} n’est pas une date-heure valide ; écrivez-la comme 2026-11-02T10:30:00+01:00.',
  occurred_at_without_offset:
    'occurred_at {value} n’a pas de décalage horaire ; terminez-la par Z ou ±hh:mm.',
  bad_recorded_at: 'recorded_at {value} n’est pas une date-heure avec décalage, comme 2026-11-02T09:30:00Z.',
  missing_status_code: 'status_code est obligatoire.',
  unknown_status_code:
    'Code de statut {code} inconnu ; utilisez un code du référentiel ou un code expérimental x-.',
  experimental_status_code:
    'Le code de statut {code} est expérimental : il est accepté mais ne fait pas partie du référentiel.',
  unknown_phase: 'Phase {phase} inconnue ; phases connues : {phases}.',
  phase_mismatch:
    'La phase {phase} ne correspond pas au code de statut {code}, dont la phase est {expected}.',
  bad_source_type: 'source.type doit être l’un de : {types}.',
  bad_country: 'Le pays {value} n’est pas un code ISO 3166-1 alpha-2 (deux majuscules, comme FR).',
  coordinate_out_of_range: '{path} doit être compris entre {min} et {max}.',
  bad_gln: 'gln doit être un GS1 Global Location Number à 13 chiffres.',
  bad_incident_reason: 'incident_reason.code doit être l’un de : {reasons}.',
  event_after_terminal: 'Cet événement s’est produit après l’événement terminal {terminal}.',
  phase_backwards: 'La phase recule de {from} à {to} sans exception ni retour entre les deux.',
  events_not_sorted:
    'Les événements ne sont pas triés par occurred_at : celui-ci s’est produit avant le précédent.',
  not_a_standard_projection:
    '{name} n’est pas une projection vers un standard externe et ne compte pas pour le niveau 2 ; projections standard : {standards}.',
};

const de: IssueMessages = {
  timeline_not_object: 'Die Zeitleiste muss ein JSON-Objekt sein.',
  expected_object: '{path} muss ein JSON-Objekt sein.',
  expected_string: '{path} muss eine Zeichenkette sein.',
  expected_number: '{path} muss eine Zahl sein.',
  expected_boolean: '{path} muss true oder false sein.',
  expected_string_array: '{path} muss ein Array von Zeichenketten sein.',
  expected_positive_integer: '{path} muss eine positive ganze Zahl sein.',
  unsupported_otep_version:
    'OTEP-Version {version} wird nicht unterstützt; dieser Dienst liest Version {supported}.',
  unknown_profile: 'Unbekanntes Profil {profile}; bekannte Profile: {profiles}.',
  missing_subject: 'subject ist erforderlich: es benennt, was die Zeitleiste verfolgt.',
  subject_without_identifier:
    'Das Subjekt hat keine Kennung; geben Sie mindestens eine an von: {identifiers}.',
  empty_identifier: '{path} ist leer; eine Kennung braucht einen Wert.',
  bad_gs1_sscc: 'gs1_sscc muss aus genau 18 Ziffern bestehen.',
  events_not_array: 'events muss ein Array sein (es darf leer sein).',
  missing_occurred_at: 'occurred_at ist erforderlich: wann das Ereignis stattfand.',
  bad_occurred_at:
    'occurred_at {value} ist kein gültiger Zeitpunkt; schreiben Sie ihn wie 2026-11-02T10:30:00+01:00.',
  occurred_at_without_offset:
    'occurred_at {value} hat keinen Zeitzonenversatz; beenden Sie ihn mit Z oder ±hh:mm.',
  bad_recorded_at: 'recorded_at {value} ist kein Zeitpunkt mit Versatz wie 2026-11-02T09:30:00Z.',
  missing_status_code: 'status_code ist erforderlich.',
  unknown_status_code:
    'Unbekannter Statuscode {code}; verwenden Sie einen Code aus dem Codebuch oder einen experimentellen x-Code.',
  experimental_status_code:
    'Der Statuscode {code} ist experimentell: Er wird akzeptiert, gehört aber nicht zum Codebuch.',
  unknown_phase: 'Unbekannte Phase {phase}; bekannte Phasen: {phases}.',
  phase_mismatch: 'Die Phase {phase} passt nicht zum Statuscode {code}, dessen Phase {expected} ist.',
  bad_source_type: 'source.type muss einer der folgenden Werte sein: {types}.',
  bad_country: 'Das Land {value} ist kein ISO-3166-1-Alpha-2-Code (zwei Großbuchstaben, wie DE).',
  coordinate_out_of_range: '{path} muss zwischen {min} und {max} liegen.',
  bad_gln: 'gln muss eine 13-stellige GS1 Global Location Number sein.',
  bad_incident_reason: 'incident_reason.code muss einer der folgenden Werte sein: {reasons}.',
  event_after_terminal: 'Dieses Ereignis fand nach dem abschließenden Ereignis {terminal} statt.',
  phase_backwards: 'Die Phase geht von {from} zurück auf {to}, ohne Ausnahme oder Rücksendung dazwischen.',
  events_not_sorted:
    'Die Ereignisse sind nicht nach occurred_at sortiert: Dieses fand vor dem vorherigen statt.',
  not_a_standard_projection:
    '{name} ist keine Projektion auf einen externen Standard und zählt nicht für Stufe 2; Standardprojektionen: {standards}.',
};

const es: IssueMessages = {
  timeline_not_object: 'La cronología debe ser un objeto JSON.',
  expected_object: '{path} debe ser un objeto JSON.',
  expected_string: '{path} debe ser una cadena de texto.',
  expected_number: '{path} debe ser un número.',
  expected_boolean: '{path} debe ser true o false.',
  expected_string_array: '{path} debe ser una lista de cadenas de texto.',
  expected_positive_integer: '{path} debe ser un entero positivo.',
  unsupported_otep_version:
    'La versión de OTEP {version} no es compatible; este servicio lee la versión {supported}.',
  unknown_profile: 'Perfil {profile} desconocido; perfiles conocidos: {profiles}.',
  missing_subject: 'subject es obligatorio: indica qué sigue la cronología.',
  subject_without_identifier:
    'El sujeto no tiene ningún identificador; indique al menos uno de: {identifiers}.',
  empty_identifier: '{path} está vacío; un identificador necesita un valor.',
  bad_gs1_sscc: 'gs1_sscc debe tener exactamente 18 dígitos.',
  events_not_array: 'events debe ser una lista (puede estar vacía).',
  missing_occurred_at: 'occurred_at es obligatorio: cuándo ocurrió el evento.',
  bad_occurred_at:
    'occurred_at {value} no es una fecha y hora válida; escríbala como 2026-11-02T10:30:00+01:00.',
  occurred_at_without_offset: 'occurred_at {value} no tiene desfase horario; termínela con Z o ±hh:mm.',
  bad_recorded_at: 'recorded_at {value} no es una fecha y hora con desfase, como 2026-11-02T09:30:00Z.',
  missing_status_code: 'status_code es obligatorio.',
  unknown_status_code:
    'Código de estado {code} desconocido; use un código del catálogo o un código experimental x-.',
  experimental_status_code:
    'El código de estado {code} es experimental: se acepta pero no forma parte del catálogo.',
  unknown_phase: 'Fase {phase} desconocida; fases conocidas: {phases}.',
  phase_mismatch: 'La fase {phase} no coincide con el código de estado {code}, cuya fase es {expected}.',
  bad_source_type: 'source.type debe ser uno de: {types}.',
  bad_country: 'El país {value} no es un código ISO 3166-1 alfa-2 (dos mayúsculas, como ES).',
  coordinate_out_of_range: '{path} debe estar entre {min} y {max}.',
  bad_gln: 'gln debe ser un GS1 Global Location Number de 13 dígitos.',
  bad_incident_reason: 'incident_reason.code debe ser uno de: {reasons}.',
  event_after_terminal: 'Este evento ocurrió después del evento final {terminal}.',
  phase_backwards: 'La fase retrocede de {from} a {to} sin una excepción o devolución intermedia.',
  events_not_sorted: 'Los eventos no están ordenados por occurred_at: este ocurrió antes que el anterior.',
  not_a_standard_projection:
    '{name} no es una proyección a un estándar externo, así que no cuenta para el nivel 2; proyecciones estándar: {standards}.',
};

const zhHans: IssueMessages = {
  timeline_not_object: '时间线必须是 JSON 对象。',
  expected_object: '{path} 必须是 JSON 对象。',
  expected_string: '{path} 必须是字符串。',
  expected_number: '{path} 必须是数字。',
  expected_boolean: '{path} 必须是 true 或 false。',
  expected_string_array: '{path} 必须是字符串数组。',
  expected_positive_integer: '{path} 必须是正整数。',
  unsupported_otep_version: '不支持 OTEP 版本 {version}；本服务读取版本 {supported}。',
  unknown_profile: '未知的配置 {profile}；已知配置：{profiles}。',
  missing_subject: '必须提供 subject：它指明时间线跟踪的对象。',
  subject_without_identifier: '主体没有任何标识符；请至少提供以下之一：{identifiers}。',
  empty_identifier: '{path} 为空；标识符必须有值。',
  bad_gs1_sscc: 'gs1_sscc 必须恰好是 18 位数字。',
  events_not_array: 'events 必须是数组（可以为空）。',
  missing_occurred_at: '必须提供 occurred_at：事件发生的时间。',
  bad_occurred_at: 'occurred_at {value} 不是有效的日期时间；请写成 2026-11-02T10:30:00+01:00 这样的格式。',
  occurred_at_without_offset: 'occurred_at {value} 没有时区偏移；请以 Z 或 ±hh:mm 结尾。',
  bad_recorded_at: 'recorded_at {value} 不是带偏移的日期时间，例如 2026-11-02T09:30:00Z。',
  missing_status_code: '必须提供 status_code。',
  unknown_status_code: '未知的状态码 {code}；请使用代码表中的代码或以 x- 开头的实验性代码。',
  experimental_status_code: '状态码 {code} 是实验性的：可以接受，但不属于代码表。',
  unknown_phase: '未知的阶段 {phase}；已知阶段：{phases}。',
  phase_mismatch: '阶段 {phase} 与状态码 {code} 不符，该状态码的阶段是 {expected}。',
  bad_source_type: 'source.type 必须是以下之一：{types}。',
  bad_country: '国家 {value} 不是 ISO 3166-1 alpha-2 代码（两个大写字母，例如 CN）。',
  coordinate_out_of_range: '{path} 必须介于 {min} 和 {max} 之间。',
  bad_gln: 'gln 必须是 13 位的 GS1 全球位置码（GLN）。',
  bad_incident_reason: 'incident_reason.code 必须是以下之一：{reasons}。',
  event_after_terminal: '此事件发生在终结事件 {terminal} 之后。',
  phase_backwards: '阶段从 {from} 倒退到 {to}，中间没有异常或退回。',
  events_not_sorted: '事件未按 occurred_at 排序：此事件发生在前一个事件之前。',
  not_a_standard_projection: '{name} 不是外部标准投影，不计入第 2 级；标准投影：{standards}。',
};

const zhHant: IssueMessages = {
  timeline_not_object: '時間軸必須是 JSON 物件。',
  expected_object: '{path} 必須是 JSON 物件。',
  expected_string: '{path} 必須是字串。',
  expected_number: '{path} 必須是數字。',
  expected_boolean: '{path} 必須是 true 或 false。',
  expected_string_array: '{path} 必須是字串陣列。',
  expected_positive_integer: '{path} 必須是正整數。',
  unsupported_otep_version: '不支援 OTEP 版本 {version}；本服務讀取版本 {supported}。',
  unknown_profile: '未知的設定檔 {profile}；已知設定檔：{profiles}。',
  missing_subject: '必須提供 subject：它指明時間軸追蹤的對象。',
  subject_without_identifier: '主體沒有任何識別碼；請至少提供下列之一：{identifiers}。',
  empty_identifier: '{path} 為空；識別碼必須有值。',
  bad_gs1_sscc: 'gs1_sscc 必須剛好是 18 位數字。',
  events_not_array: 'events 必須是陣列（可以為空）。',
  missing_occurred_at: '必須提供 occurred_at：事件發生的時間。',
  bad_occurred_at: 'occurred_at {value} 不是有效的日期時間；請寫成 2026-11-02T10:30:00+01:00 這樣的格式。',
  occurred_at_without_offset: 'occurred_at {value} 沒有時區偏移；請以 Z 或 ±hh:mm 結尾。',
  bad_recorded_at: 'recorded_at {value} 不是帶偏移的日期時間，例如 2026-11-02T09:30:00Z。',
  missing_status_code: '必須提供 status_code。',
  unknown_status_code: '未知的狀態碼 {code}；請使用代碼表中的代碼或以 x- 開頭的實驗性代碼。',
  experimental_status_code: '狀態碼 {code} 是實驗性的：可以接受，但不屬於代碼表。',
  unknown_phase: '未知的階段 {phase}；已知階段：{phases}。',
  phase_mismatch: '階段 {phase} 與狀態碼 {code} 不符，該狀態碼的階段是 {expected}。',
  bad_source_type: 'source.type 必須是下列之一：{types}。',
  bad_country: '國家 {value} 不是 ISO 3166-1 alpha-2 代碼（兩個大寫字母，例如 TW）。',
  coordinate_out_of_range: '{path} 必須介於 {min} 與 {max} 之間。',
  bad_gln: 'gln 必須是 13 位數的 GS1 全球位置碼（GLN）。',
  bad_incident_reason: 'incident_reason.code 必須是下列之一：{reasons}。',
  event_after_terminal: '此事件發生在終結事件 {terminal} 之後。',
  phase_backwards: '階段從 {from} 倒退到 {to}，中間沒有異常或退回。',
  events_not_sorted: '事件未依 occurred_at 排序：此事件發生在前一個事件之前。',
  not_a_standard_projection: '{name} 不是外部標準投影，不計入第 2 級；標準投影：{standards}。',
};

const ISSUE_MESSAGES: Record<Language, IssueMessages> = {
  en,
  'zh-Hans': zhHans,
  'zh-Hant': zhHant,
  fr,
  de,
  es,
};

export const ISSUE_CODES = Object.keys(en) as IssueCode[];

export function issueMessage(code: IssueCode, lang: Language, params: MessageParams = {}): string {
  return fillTemplate(ISSUE_MESSAGES[lang][code], params);
}

/** For the consistency test: every language's table. */
export function issueMessageTables(): Readonly<Record<Language, IssueMessages>> {
  return ISSUE_MESSAGES;
}
