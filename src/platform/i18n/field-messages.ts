import type { z } from 'zod';
import type { MessageParams } from '../errors.ts';
import type { Language } from './languages.ts';

/**
 * What the service's own schemas say about a field they refuse, beyond zod's own messages (which
 * zod translates): the shapes of codes, versions and amounts, and rules across fields. Field names
 * and examples stay as they are: they are what the caller writes.
 */
const en = {
  clock_time: 'Expected a local time HH:MM, such as 08:30.',
  window_end_after_start: 'The end must come after the start.',
  country_code: 'Expected an ISO 3166-1 alpha-2 country code, such as FR.',
  currency_code: 'Expected an ISO 4217 currency code, such as EUR.',
  amount: 'Expected an amount in major units, a number or a decimal string such as 12.50.',
  non_negative_amount: 'Expected an amount of zero or more, a number or a decimal string such as 4.90.',
  not_zero: 'Must not be zero.',
  exactly_one_of: 'Give exactly one of: {fields}.',
  at_least_one_of: 'Give at least one of: {fields}.',
  not_before: 'Must not be before {field}.',
  pdf_or_sha256: 'Send either the PDF (application/pdf) or its sha256 (application/json).',
  sha256: 'Expected a SHA-256 as 64 hexadecimal digits.',
  postal_prefix: 'Expected letters, digits, spaces and hyphens only.',
  slug: 'Expected up to {max} lowercase letters, digits, - and _, starting with a letter or a digit.',
  app_code: 'Expected 2 to 63 lowercase letters, digits, - and _, starting with a letter or a digit.',
  provider_code: 'Expected 2 to 32 lowercase letters, digits, - and _, starting with a letter.',
  capability_name: 'Expected a dotted name such as wallet.balance.',
  semantic_version: 'Expected a semantic version such as 2.4.1.',
  phone_number: 'Expected a phone number: digits, spaces, ( ) . - and an optional leading +.',
  colour: 'Expected a colour such as #1f6feb.',
  number_too_large: 'The number is too large.',
  max_decimals: 'At most {decimals} decimals ({unit}).',
  increasing: 'Each {field} must be above the one before.',
  unique: 'Each {field} must be unique.',
  unknown_zone: 'No zone {zone} in the zoning.',
  field_name: 'Expected a field name: a lowercase letter, then up to 39 lowercase letters, digits and _.',
  unknown_field: 'No field {field} in this dataset.',
  enum_values_required: 'An enum field lists its values.',
  enum_values_only: 'Only an enum field lists values.',
  one_location_field: 'A dataset has at most one address or geo_point field.',
  lat_lng_together: 'Give both lat and lng, or neither.',
  record_too_large: 'A record holds at most {max} bytes of JSON.',
  filter_not_applicable: '{op} does not apply to a {type} field.',
  near_required: 'Ordering by distance needs near.',
  both_or_neither: 'Give both {fields}, or neither.',
  at_most_days: 'At most {max} days.',
  time_zone: 'Expected an IANA time zone such as Europe/Paris.',
  recurrence_rule:
    'Expected an RRULE (RFC 5545) without DTSTART, such as FREQ=WEEKLY;BYDAY=MO,TU;BYHOUR=9,10;BYMINUTE=0.',
  contact: 'Expected an email address or a phone number (digits, spaces, ( ) . - and an optional leading +).',
  instant: 'Expected an ISO 8601 instant such as 2026-11-03T09:00:00Z.',
  location_code: 'Expected up to 32 letters, digits, ., _ and -, starting with a letter or a digit.',
  longitude: 'Expected a longitude from -180 to 180 (GeoJSON puts longitude first).',
  latitude: 'Expected a latitude from -90 to 90 (GeoJSON puts latitude second).',
  ring_positions: 'A linear ring needs at least 4 positions.',
  ring_closed: 'A linear ring must end at the position it starts from.',
  zone_vertices: 'A zone holds at most {max} positions.',
  site_origin:
    'Expected a site origin such as https://shop.example.com: http or https, a host and an optional port, nothing after.',
  unknown_service_zone: 'No service zone {id} in this business.',
  page_cursor: 'Expected the next_cursor of an earlier page of this list.',
  unknown_dataset: 'No dataset {id} in this business.',
  public_field_type:
    'A published map shows only number, boolean, date and enum fields; {field} is none of them.',
  at_least_field: 'Must be at least {field}.',
  above_field: 'Must be above {field}.',
  at_most_pieces: 'At most {max} pieces in one plan (the quantities added up).',
  convex_outline: 'Expected a convex outline, its points counter-clockwise, within the width and the height.',
};

export type FieldMessageKey = keyof typeof en;
type FieldMessages = Record<FieldMessageKey, string>;

const fr: FieldMessages = {
  clock_time: 'Une heure locale HH:MM est attendue, par exemple 08:30.',
  window_end_after_start: 'La fin doit venir après le début.',
  country_code: 'Un code pays ISO 3166-1 alpha-2 est attendu, par exemple FR.',
  currency_code: 'Un code devise ISO 4217 est attendu, par exemple EUR.',
  amount: 'Un montant en unités principales est attendu, un nombre ou une chaîne décimale comme 12.50.',
  non_negative_amount: 'Un montant positif ou nul est attendu, un nombre ou une chaîne décimale comme 4.90.',
  not_zero: 'Ne doit pas valoir zéro.',
  exactly_one_of: 'Indiquez exactement l’un de : {fields}.',
  at_least_one_of: 'Indiquez au moins l’un de : {fields}.',
  not_before: 'Ne doit pas précéder {field}.',
  pdf_or_sha256: 'Envoyez soit le PDF (application/pdf), soit son sha256 (application/json).',
  sha256: 'Un SHA-256 de 64 chiffres hexadécimaux est attendu.',
  postal_prefix: 'Seuls les lettres, chiffres, espaces et traits d’union sont admis.',
  slug: 'Jusqu’à {max} lettres minuscules, chiffres, - et _ sont attendus, en commençant par une lettre ou un chiffre.',
  app_code:
    'De 2 à 63 lettres minuscules, chiffres, - et _ sont attendus, en commençant par une lettre ou un chiffre.',
  provider_code:
    'De 2 à 32 lettres minuscules, chiffres, - et _ sont attendus, en commençant par une lettre.',
  capability_name: 'Un nom à points est attendu, par exemple wallet.balance.',
  semantic_version: 'Une version sémantique est attendue, par exemple 2.4.1.',
  phone_number: 'Un numéro de téléphone est attendu : chiffres, espaces, ( ) . - et un + initial facultatif.',
  colour: 'Une couleur est attendue, par exemple #1f6feb.',
  number_too_large: 'Le nombre est trop grand.',
  max_decimals: 'Au plus {decimals} décimales ({unit}).',
  increasing: 'Chaque {field} doit dépasser le précédent.',
  unique: 'Chaque {field} doit être unique.',
  unknown_zone: 'Aucune zone {zone} dans le zonage.',
  field_name:
    'Un nom de champ est attendu : une lettre minuscule, puis jusqu’à 39 lettres minuscules, chiffres et _.',
  unknown_field: 'Aucun champ {field} dans ce jeu de données.',
  enum_values_required: 'Un champ enum liste ses valeurs.',
  enum_values_only: 'Seul un champ enum liste des valeurs.',
  one_location_field: 'Un jeu de données a au plus un champ address ou geo_point.',
  lat_lng_together: 'Indiquez lat et lng ensemble, ou aucun des deux.',
  record_too_large: 'Un enregistrement tient en {max} octets de JSON au plus.',
  filter_not_applicable: '{op} ne s’applique pas à un champ {type}.',
  near_required: 'Le tri par distance demande near.',
  both_or_neither: 'Indiquez à la fois {fields}, ou aucun des deux.',
  at_most_days: '{max} jours au plus.',
  time_zone: 'Un fuseau horaire IANA est attendu, par exemple Europe/Paris.',
  recurrence_rule:
    'Une RRULE (RFC 5545) sans DTSTART est attendue, par exemple FREQ=WEEKLY;BYDAY=MO,TU;BYHOUR=9,10;BYMINUTE=0.',
  contact:
    'Une adresse e-mail ou un numéro de téléphone est attendu (chiffres, espaces, ( ) . - et un + initial facultatif).',
  instant: 'Un instant ISO 8601 est attendu, par exemple 2026-11-03T09:00:00Z.',
  location_code:
    'Jusqu’à 32 lettres, chiffres, ., _ et - sont attendus, en commençant par une lettre ou un chiffre.',
  longitude: 'Une longitude de -180 à 180 est attendue (GeoJSON place la longitude en premier).',
  latitude: 'Une latitude de -90 à 90 est attendue (GeoJSON place la latitude en second).',
  ring_positions: 'Un anneau linéaire demande au moins 4 positions.',
  ring_closed: 'Un anneau linéaire doit finir à la position où il commence.',
  zone_vertices: 'Une zone compte au plus {max} positions.',
  site_origin:
    'Une origine de site est attendue, par exemple https://shop.example.com : http ou https, un hôte et un port facultatif, rien après.',
  unknown_service_zone: 'Aucune zone de service {id} dans cette entreprise.',
  page_cursor: 'Attendu : le next_cursor d’une page précédente de cette liste.',
  unknown_dataset: 'Aucun jeu de données {id} dans cette entreprise.',
  public_field_type:
    'Une carte publiée ne montre que des champs nombre, booléen, date et énumération ; {field} n’en est pas un.',
  at_least_field: 'Doit valoir au moins {field}.',
  above_field: 'Doit dépasser {field}.',
  at_most_pieces: 'Au plus {max} pièces dans un plan (quantités additionnées).',
  convex_outline:
    'Un contour convexe est attendu, ses points dans le sens antihoraire, dans la largeur et la hauteur.',
};

const de: FieldMessages = {
  clock_time: 'Erwartet wird eine Ortszeit HH:MM, etwa 08:30.',
  window_end_after_start: 'Das Ende muss nach dem Beginn liegen.',
  country_code: 'Erwartet wird ein Ländercode nach ISO 3166-1 Alpha-2, etwa DE.',
  currency_code: 'Erwartet wird ein Währungscode nach ISO 4217, etwa EUR.',
  amount: 'Erwartet wird ein Betrag in Haupteinheiten, eine Zahl oder eine Dezimalzeichenkette wie 12.50.',
  non_negative_amount:
    'Erwartet wird ein Betrag von null oder mehr, eine Zahl oder eine Dezimalzeichenkette wie 4.90.',
  not_zero: 'Darf nicht null sein.',
  exactly_one_of: 'Geben Sie genau eines an von: {fields}.',
  at_least_one_of: 'Geben Sie mindestens eines an von: {fields}.',
  not_before: 'Darf nicht vor {field} liegen.',
  pdf_or_sha256: 'Senden Sie entweder das PDF (application/pdf) oder seinen sha256 (application/json).',
  sha256: 'Erwartet wird ein SHA-256 aus 64 Hexadezimalziffern.',
  postal_prefix: 'Nur Buchstaben, Ziffern, Leerzeichen und Bindestriche sind erlaubt.',
  slug: 'Erwartet werden bis zu {max} Kleinbuchstaben, Ziffern, - und _, beginnend mit einem Buchstaben oder einer Ziffer.',
  app_code:
    'Erwartet werden 2 bis 63 Kleinbuchstaben, Ziffern, - und _, beginnend mit einem Buchstaben oder einer Ziffer.',
  provider_code:
    'Erwartet werden 2 bis 32 Kleinbuchstaben, Ziffern, - und _, beginnend mit einem Buchstaben.',
  capability_name: 'Erwartet wird ein Name mit Punkten, etwa wallet.balance.',
  semantic_version: 'Erwartet wird eine semantische Version, etwa 2.4.1.',
  phone_number:
    'Erwartet wird eine Telefonnummer: Ziffern, Leerzeichen, ( ) . - und optional ein führendes +.',
  colour: 'Erwartet wird eine Farbe, etwa #1f6feb.',
  number_too_large: 'Die Zahl ist zu groß.',
  max_decimals: 'Höchstens {decimals} Nachkommastellen ({unit}).',
  increasing: 'Jeder Wert von {field} muss über dem vorigen liegen.',
  unique: 'Jeder Wert von {field} muss eindeutig sein.',
  unknown_zone: 'Keine Zone {zone} in der Zoneneinteilung.',
  field_name:
    'Erwartet wird ein Feldname: ein Kleinbuchstabe, dann bis zu 39 Kleinbuchstaben, Ziffern und _.',
  unknown_field: 'Kein Feld {field} in diesem Datensatz.',
  enum_values_required: 'Ein enum-Feld nennt seine Werte.',
  enum_values_only: 'Nur ein enum-Feld nennt Werte.',
  one_location_field: 'Ein Datensatz hat höchstens ein address- oder geo_point-Feld.',
  lat_lng_together: 'Geben Sie lat und lng zusammen an oder keines von beiden.',
  record_too_large: 'Ein Eintrag umfasst höchstens {max} Bytes JSON.',
  filter_not_applicable: '{op} gilt nicht für ein Feld vom Typ {type}.',
  near_required: 'Die Sortierung nach Entfernung braucht near.',
  both_or_neither: 'Geben Sie {fields} beide an oder keines davon.',
  at_most_days: 'Höchstens {max} Tage.',
  time_zone: 'Erwartet wird eine IANA-Zeitzone wie Europe/Paris.',
  recurrence_rule:
    'Erwartet wird eine RRULE (RFC 5545) ohne DTSTART, etwa FREQ=WEEKLY;BYDAY=MO,TU;BYHOUR=9,10;BYMINUTE=0.',
  contact:
    'Erwartet wird eine E-Mail-Adresse oder Telefonnummer (Ziffern, Leerzeichen, ( ) . - und optional ein führendes +).',
  instant: 'Erwartet wird ein ISO-8601-Zeitpunkt wie 2026-11-03T09:00:00Z.',
  location_code:
    'Erwartet werden bis zu 32 Buchstaben, Ziffern, ., _ und -, beginnend mit einem Buchstaben oder einer Ziffer.',
  longitude: 'Erwartet wird ein Längengrad von -180 bis 180 (GeoJSON nennt den Längengrad zuerst).',
  latitude: 'Erwartet wird ein Breitengrad von -90 bis 90 (GeoJSON nennt den Breitengrad als zweiten).',
  ring_positions: 'Ein linearer Ring braucht mindestens 4 Positionen.',
  ring_closed: 'Ein linearer Ring muss an der Position enden, an der er beginnt.',
  zone_vertices: 'Eine Zone umfasst höchstens {max} Positionen.',
  site_origin:
    'Erwartet wird der Ursprung einer Website wie https://shop.example.com: http oder https, ein Host und ein optionaler Port, nichts danach.',
  unknown_service_zone: 'Keine Servicezone {id} in diesem Unternehmen.',
  page_cursor: 'Erwartet wird der next_cursor einer früheren Seite dieser Liste.',
  unknown_dataset: 'Kein Datensatz {id} in diesem Unternehmen.',
  public_field_type:
    'Eine veröffentlichte Karte zeigt nur Zahlen-, Wahrheitswert-, Datums- und Auswahlfelder; {field} ist keines davon.',
  at_least_field: 'Muss mindestens {field} betragen.',
  above_field: 'Muss über {field} liegen.',
  at_most_pieces: 'Höchstens {max} Stücke in einem Plan (Mengen zusammengezählt).',
  convex_outline:
    'Erwartet wird ein konvexer Umriss, Punkte gegen den Uhrzeigersinn, innerhalb von Breite und Höhe.',
};

const es: FieldMessages = {
  clock_time: 'Se espera una hora local HH:MM, como 08:30.',
  window_end_after_start: 'El final debe ser posterior al inicio.',
  country_code: 'Se espera un código de país ISO 3166-1 alfa-2, como ES.',
  currency_code: 'Se espera un código de moneda ISO 4217, como EUR.',
  amount: 'Se espera un importe en unidades principales, un número o una cadena decimal como 12.50.',
  non_negative_amount: 'Se espera un importe de cero o más, un número o una cadena decimal como 4.90.',
  not_zero: 'No debe ser cero.',
  exactly_one_of: 'Indique exactamente uno de: {fields}.',
  at_least_one_of: 'Indique al menos uno de: {fields}.',
  not_before: 'No debe ser anterior a {field}.',
  pdf_or_sha256: 'Envíe el PDF (application/pdf) o su sha256 (application/json).',
  sha256: 'Se espera un SHA-256 de 64 dígitos hexadecimales.',
  postal_prefix: 'Solo se admiten letras, dígitos, espacios y guiones.',
  slug: 'Se esperan hasta {max} letras minúsculas, dígitos, - y _, empezando por una letra o un dígito.',
  app_code: 'Se esperan de 2 a 63 letras minúsculas, dígitos, - y _, empezando por una letra o un dígito.',
  provider_code: 'Se esperan de 2 a 32 letras minúsculas, dígitos, - y _, empezando por una letra.',
  capability_name: 'Se espera un nombre con puntos, como wallet.balance.',
  semantic_version: 'Se espera una versión semántica, como 2.4.1.',
  phone_number: 'Se espera un número de teléfono: dígitos, espacios, ( ) . - y un + inicial opcional.',
  colour: 'Se espera un color, como #1f6feb.',
  number_too_large: 'El número es demasiado grande.',
  max_decimals: 'Como máximo {decimals} decimales ({unit}).',
  increasing: 'Cada {field} debe ser mayor que el anterior.',
  unique: 'Cada {field} debe ser único.',
  unknown_zone: 'No hay ninguna zona {zone} en la zonificación.',
  field_name:
    'Se espera un nombre de campo: una letra minúscula y luego hasta 39 letras minúsculas, dígitos y _.',
  unknown_field: 'No hay ningún campo {field} en este conjunto de datos.',
  enum_values_required: 'Un campo enum enumera sus valores.',
  enum_values_only: 'Solo un campo enum enumera valores.',
  one_location_field: 'Un conjunto de datos tiene como máximo un campo address o geo_point.',
  lat_lng_together: 'Indique lat y lng juntos, o ninguno.',
  record_too_large: 'Un registro ocupa como máximo {max} bytes de JSON.',
  filter_not_applicable: '{op} no se aplica a un campo {type}.',
  near_required: 'Ordenar por distancia requiere near.',
  both_or_neither: 'Indique {fields} a la vez, o ninguno.',
  at_most_days: 'Como máximo {max} días.',
  time_zone: 'Se espera una zona horaria IANA, como Europe/Paris.',
  recurrence_rule:
    'Se espera una RRULE (RFC 5545) sin DTSTART, como FREQ=WEEKLY;BYDAY=MO,TU;BYHOUR=9,10;BYMINUTE=0.',
  contact:
    'Se espera una dirección de correo o un número de teléfono (dígitos, espacios, ( ) . - y un + inicial opcional).',
  instant: 'Se espera un instante ISO 8601, como 2026-11-03T09:00:00Z.',
  location_code: 'Se esperan hasta 32 letras, dígitos, ., _ y -, empezando por una letra o un dígito.',
  longitude: 'Se espera una longitud de -180 a 180 (GeoJSON pone la longitud primero).',
  latitude: 'Se espera una latitud de -90 a 90 (GeoJSON pone la latitud en segundo lugar).',
  ring_positions: 'Un anillo lineal necesita al menos 4 posiciones.',
  ring_closed: 'Un anillo lineal debe terminar en la posición donde empieza.',
  zone_vertices: 'Una zona tiene como máximo {max} posiciones.',
  site_origin:
    'Se espera el origen de un sitio, como https://shop.example.com: http o https, un host y un puerto opcional, nada después.',
  unknown_service_zone: 'No hay ninguna zona de servicio {id} en esta empresa.',
  page_cursor: 'Se esperaba el next_cursor de una página anterior de esta lista.',
  unknown_dataset: 'No hay ningún conjunto de datos {id} en esta empresa.',
  public_field_type:
    'Un mapa publicado solo muestra campos de número, booleano, fecha y enumeración; {field} no es ninguno de ellos.',
  at_least_field: 'Debe ser al menos {field}.',
  above_field: 'Debe ser mayor que {field}.',
  at_most_pieces: 'Como máximo {max} piezas en un plan (sumando las cantidades).',
  convex_outline:
    'Se espera un contorno convexo, con sus puntos en sentido antihorario, dentro del ancho y la altura.',
};

const zhHans: FieldMessages = {
  clock_time: '应为 HH:MM 格式的当地时间，例如 08:30。',
  window_end_after_start: '结束时间必须晚于开始时间。',
  country_code: '应为 ISO 3166-1 alpha-2 国家代码，例如 CN。',
  currency_code: '应为 ISO 4217 货币代码，例如 CNY。',
  amount: '应为以主单位表示的金额：数字或十进制字符串，例如 12.50。',
  non_negative_amount: '应为零或正数金额：数字或十进制字符串，例如 4.90。',
  not_zero: '不能为零。',
  exactly_one_of: '请恰好提供以下其中一项：{fields}。',
  at_least_one_of: '请至少提供以下其中一项：{fields}。',
  not_before: '不能早于 {field}。',
  pdf_or_sha256: '请以 application/pdf 发送 PDF，或以 application/json 发送其 sha256。',
  sha256: '应为 64 位十六进制数字的 SHA-256。',
  postal_prefix: '只能包含字母、数字、空格和连字符。',
  slug: '应为最多 {max} 个小写字母、数字、- 和 _，以字母或数字开头。',
  app_code: '应为 2 到 63 个小写字母、数字、- 和 _，以字母或数字开头。',
  provider_code: '应为 2 到 32 个小写字母、数字、- 和 _，以字母开头。',
  capability_name: '应为以点分隔的名称，例如 wallet.balance。',
  semantic_version: '应为语义化版本号，例如 2.4.1。',
  phone_number: '应为电话号码：数字、空格、( ) . -，开头可带 +。',
  colour: '应为颜色值，例如 #1f6feb。',
  number_too_large: '数字过大。',
  max_decimals: '最多 {decimals} 位小数（{unit}）。',
  increasing: '每个 {field} 都必须大于前一个。',
  unique: '每个 {field} 都必须唯一。',
  unknown_zone: '分区方案中没有区域 {zone}。',
  field_name: '字段名应为：一个小写字母，后跟最多 39 个小写字母、数字和 _。',
  unknown_field: '此数据集中没有字段 {field}。',
  enum_values_required: 'enum 字段须列出其取值。',
  enum_values_only: '只有 enum 字段才能列出取值。',
  one_location_field: '一个数据集最多有一个 address 或 geo_point 字段。',
  lat_lng_together: '请同时提供 lat 和 lng，或都不提供。',
  record_too_large: '一条记录最多 {max} 字节 JSON。',
  filter_not_applicable: '{op} 不适用于 {type} 类型的字段。',
  near_required: '按距离排序需要 near。',
  both_or_neither: '{fields} 须同时提供，或都不提供。',
  at_most_days: '最多 {max} 天。',
  time_zone: '应为 IANA 时区，例如 Europe/Paris。',
  recurrence_rule:
    '应为不含 DTSTART 的 RRULE（RFC 5545），例如 FREQ=WEEKLY;BYDAY=MO,TU;BYHOUR=9,10;BYMINUTE=0。',
  contact: '应为电子邮件地址或电话号码（数字、空格、( ) . - 以及可选的前导 +）。',
  instant: '应为 ISO 8601 时刻，例如 2026-11-03T09:00:00Z。',
  location_code: '应为最多 32 个字母、数字、.、_ 和 -，以字母或数字开头。',
  longitude: '应为 -180 到 180 之间的经度（GeoJSON 中经度在前）。',
  latitude: '应为 -90 到 90 之间的纬度（GeoJSON 中纬度在后）。',
  ring_positions: '线性环至少需要 4 个位置。',
  ring_closed: '线性环必须在起点位置结束。',
  zone_vertices: '一个区域最多包含 {max} 个位置。',
  site_origin:
    '应为网站来源，例如 https://shop.example.com：http 或 https、主机名和可选端口，之后不能有其他内容。',
  unknown_service_zone: '本企业没有服务区域 {id}。',
  page_cursor: '应为此列表前一页的 next_cursor。',
  unknown_dataset: '本企业没有数据集 {id}。',
  public_field_type: '公开地图只显示数字、布尔、日期和枚举字段；{field} 不属于其中任何一种。',
  at_least_field: '不得小于 {field}。',
  above_field: '必须大于 {field}。',
  at_most_pieces: '一个方案最多 {max} 件（数量相加）。',
  convex_outline: '应为凸轮廓，各点按逆时针顺序，且在宽度和高度范围内。',
};

const zhHant: FieldMessages = {
  clock_time: '應為 HH:MM 格式的當地時間，例如 08:30。',
  window_end_after_start: '結束時間必須晚於開始時間。',
  country_code: '應為 ISO 3166-1 alpha-2 國家代碼，例如 TW。',
  currency_code: '應為 ISO 4217 貨幣代碼，例如 TWD。',
  amount: '應為以主單位表示的金額：數字或十進位字串，例如 12.50。',
  non_negative_amount: '應為零或正數金額：數字或十進位字串，例如 4.90。',
  not_zero: '不能為零。',
  exactly_one_of: '請恰好提供以下其中一項：{fields}。',
  at_least_one_of: '請至少提供以下其中一項：{fields}。',
  not_before: '不能早於 {field}。',
  pdf_or_sha256: '請以 application/pdf 傳送 PDF，或以 application/json 傳送其 sha256。',
  sha256: '應為 64 位十六進位數字的 SHA-256。',
  postal_prefix: '只能包含字母、數字、空格和連字號。',
  slug: '應為最多 {max} 個小寫字母、數字、- 和 _，以字母或數字開頭。',
  app_code: '應為 2 到 63 個小寫字母、數字、- 和 _，以字母或數字開頭。',
  provider_code: '應為 2 到 32 個小寫字母、數字、- 和 _，以字母開頭。',
  capability_name: '應為以點分隔的名稱，例如 wallet.balance。',
  semantic_version: '應為語意化版本號，例如 2.4.1。',
  phone_number: '應為電話號碼：數字、空格、( ) . -，開頭可帶 +。',
  colour: '應為顏色值，例如 #1f6feb。',
  number_too_large: '數字過大。',
  max_decimals: '最多 {decimals} 位小數（{unit}）。',
  increasing: '每個 {field} 都必須大於前一個。',
  unique: '每個 {field} 都必須唯一。',
  unknown_zone: '分區方案中沒有區域 {zone}。',
  field_name: '欄位名稱應為：一個小寫字母，後接最多 39 個小寫字母、數字和 _。',
  unknown_field: '此資料集中沒有欄位 {field}。',
  enum_values_required: 'enum 欄位須列出其取值。',
  enum_values_only: '只有 enum 欄位才能列出取值。',
  one_location_field: '一個資料集最多有一個 address 或 geo_point 欄位。',
  lat_lng_together: '請同時提供 lat 和 lng，或都不提供。',
  record_too_large: '一筆記錄最多 {max} 位元組 JSON。',
  filter_not_applicable: '{op} 不適用於 {type} 類型的欄位。',
  near_required: '依距離排序需要 near。',
  both_or_neither: '{fields} 須同時提供，或都不提供。',
  at_most_days: '最多 {max} 天。',
  time_zone: '應為 IANA 時區，例如 Europe/Paris。',
  recurrence_rule:
    '應為不含 DTSTART 的 RRULE（RFC 5545），例如 FREQ=WEEKLY;BYDAY=MO,TU;BYHOUR=9,10;BYMINUTE=0。',
  contact: '應為電子郵件地址或電話號碼（數字、空格、( ) . - 以及可選的前導 +）。',
  instant: '應為 ISO 8601 時刻，例如 2026-11-03T09:00:00Z。',
  location_code: '應為最多 32 個字母、數字、.、_ 和 -，以字母或數字開頭。',
  longitude: '應為 -180 到 180 之間的經度（GeoJSON 中經度在前）。',
  latitude: '應為 -90 到 90 之間的緯度（GeoJSON 中緯度在後）。',
  ring_positions: '線性環至少需要 4 個位置。',
  ring_closed: '線性環必須在起點位置結束。',
  zone_vertices: '一個區域最多包含 {max} 個位置。',
  site_origin:
    '應為網站來源，例如 https://shop.example.com：http 或 https、主機名稱和選用的連接埠，之後不能有其他內容。',
  unknown_service_zone: '本企業沒有服務區域 {id}。',
  page_cursor: '應為此清單前一頁的 next_cursor。',
  unknown_dataset: '本企業沒有資料集 {id}。',
  public_field_type: '公開地圖只顯示數字、布林、日期和列舉欄位；{field} 不屬於其中任何一種。',
  at_least_field: '不得小於 {field}。',
  above_field: '必須大於 {field}。',
  at_most_pieces: '一個方案最多 {max} 件（數量相加）。',
  convex_outline: '應為凸輪廓，各點按逆時針順序，且在寬度和高度範圍內。',
};

export const FIELD_MESSAGES: Readonly<Record<Language, FieldMessages>> = {
  en,
  fr,
  de,
  es,
  'zh-Hans': zhHans,
  'zh-Hant': zhHant,
};

const NAMED = Symbol('field message');
interface Named {
  key: FieldMessageKey;
  params: MessageParams;
}

/**
 * A schema's own message, by name: `.regex(pattern, fieldMessage('currency_code'))`. The schema
 * does not know the caller's language, so its error map says nothing itself and leaves the
 * message to the error map of the parse (validationErrorMap), which reads the name off the check.
 */
export function fieldMessage(
  key: FieldMessageKey,
  params: MessageParams = {},
): { error: z.core.$ZodErrorMap } {
  return { error: Object.assign(() => undefined, { [NAMED]: { key, params } }) };
}

/** The same for an issue raised by hand in a superRefine: `ctx.addIssue({ code: 'custom', path, ...fieldIssue(...) })`. */
export function fieldIssue(
  key: FieldMessageKey,
  params: MessageParams = {},
): { params: Record<string, unknown> } {
  return { params: { [NAMED]: { key, params } } as Record<string, unknown> };
}

/** The message named by the check (or the hand-made issue) that raised `issue`; undefined when none is. */
export function namedFieldMessage(issue: z.core.$ZodRawIssue): Named | undefined {
  const fromIssue = issue.code === 'custom' ? (issue.params as { [NAMED]?: Named } | undefined) : undefined;
  const fromCheck = issue.inst?._zod.def.error as { [NAMED]?: Named } | undefined;
  return fromIssue?.[NAMED] ?? fromCheck?.[NAMED];
}
