import type { ErrorMessages } from './en.ts';

export const de: ErrorMessages = {
  BAD_REQUEST: 'Die Anfrage ist fehlerhaft aufgebaut.',
  INVALID_JSON: 'Der Anfragetext ist kein gültiges JSON.',
  INVALID_URL:
    'Die Adresse ist fehlerhaft: eine %-Kodierung ist ungültig, oder ein Teil enthält ein Zeichen, das Text nicht enthalten darf.',
  PARAMETER_TOO_LONG: 'Ein Teil der Adresse ist länger als {limit} Zeichen.',
  UNSUPPORTED_CHARACTERS:
    'Diese Felder enthalten ein NUL-Zeichen oder ein unvollständiges UTF-16-Ersatzzeichen, die in Text nicht erlaubt sind: {fields}.',
  UNAUTHENTICATED:
    'Bitte zuerst anmelden: Senden Sie ein gültiges, nicht abgelaufenes Zugriffstoken als „Authorization: Bearer <Token>“.',
  API_TOKEN_ARGUMENT_REMOVED:
    'Das Werkzeugargument api_token endete nach dem {date}: Senden Sie das Token im Header Authorization: Bearer der Verbindung.',
  INVALID_CREDENTIALS: 'E-Mail-Adresse oder Passwort ist falsch.',
  FORBIDDEN: 'Ihr Konto darf diese Aktion nicht ausführen.',
  SCOPE_REQUIRED: 'Die Berechtigungen dieser Verbindung umfassen nicht, was dafür nötig ist: {scopes}.',
  INSUFFICIENT_SCOPE: 'Ihrem Zugriffstoken fehlt die benötigte Berechtigung: {scopes}.',
  ACCOUNT_DISABLED: 'Dieses Konto ist deaktiviert. Bitten Sie Ihre Administration, es freizuschalten.',
  ENDPOINT_NOT_FOUND: 'Es gibt keinen Endpunkt {method} {path}.',
  USER_NOT_FOUND: 'Es gibt keinen Benutzer mit dieser E-Mail-Adresse oder ID.',
  BUSINESS_NOT_FOUND: 'Es gibt kein Unternehmen mit diesem Code oder dieser ID.',
  EMAIL_TAKEN: 'Ein Benutzer mit dieser E-Mail-Adresse existiert bereits.',
  BUSINESS_CODE_TAKEN: 'Ein Unternehmen mit diesem Code existiert bereits.',
  PAYLOAD_TOO_LARGE: 'Der Anfragetext überschreitet die Grenze von {limit} Bytes.',
  HEADERS_TOO_LARGE:
    'Die Kopfzeilen und die URL der Anfrage sind größer, als der Server annimmt ({limit} Bytes); senden Sie darin weniger oder die Daten im Anfragetext.',
  REQUEST_TIMEOUT: 'Die Anfrage ist nicht rechtzeitig vollständig angekommen.',
  UNSUPPORTED_MEDIA_TYPE: 'Der Anfragetext muss als application/json gesendet werden.',
  UNSUPPORTED_DOCUMENT_TYPE:
    'Senden Sie das PDF selbst als application/pdf oder seinen SHA-256-Wert als application/json ({ "sha256": "<hex>" }).',
  UNSUPPORTED_PROOF_TYPE: 'Senden Sie das Bild selbst als image/png, image/jpeg oder image/webp.',
  UNSUPPORTED_LABEL_TYPE: 'Senden Sie das Etikett selbst als image/png, image/jpeg oder application/pdf.',
  PROOF_LINK_INVALID:
    'Dieser Link zu einem Zustellnachweis ist falsch oder abgelaufen; öffnen Sie die Sendungsverfolgung erneut, um einen neuen zu erhalten.',
  PROOF_NOT_AN_IMAGE: 'Der Inhalt ist kein lesbares {type}-Bild mit 1 bis {max_pixels} Pixeln Seitenlänge.',
  LABEL_NOT_READABLE: 'Der Inhalt ist kein lesbares {type}-Etikett.',
  LABEL_IMAGE_TOO_LARGE:
    'Das Etikett hat {width} × {height} Pixel; gelesen werden höchstens {max_side} Pixel pro Seite und {max_megapixels} Megapixel.',
  PROOF_NOT_FOUND: '{proof} ist keine für diesen Auftrag hochgeladene Nachweisdatei ({kind}).',
  VALIDATION_FAILED: 'Einige Felder sind ungültig: {fields}.',
  RATE_LIMITED: 'Zu viele Versuche. Versuchen Sie es in {seconds} Sekunden erneut.',
  TOO_MANY_STREAMS:
    'Für dieses Unternehmen sind zu viele Live-Übersichten geöffnet (höchstens {limit}); schließen Sie eine und versuchen Sie es erneut.',
  INTERNAL_ERROR: 'Bei uns ist ein Fehler aufgetreten. Nennen Sie dem Support die Anfrage-ID {request_id}.',
  ORDER_NOT_FOUND: 'In diesem Unternehmen gibt es keinen Auftrag {order}.',
  ORDER_REF_TAKEN: 'Die Auftragsreferenz {order_ref} wird in diesem Unternehmen bereits verwendet.',
  ILLEGAL_STATUS_TRANSITION: 'Ein Auftrag im Status {from} kann nicht in {to} wechseln.',
  ORDER_LOCATION_LOCKED:
    'Der Standort {leg} des Auftrags {order} kann im Status {status} nicht geändert werden.',
  ORDER_LEG_UNUSED: 'Auftrag {order} hat keine Adresse {leg} zum Verorten.',
  ADDRESS_NOT_PLACEABLE:
    'Weder die eigenen Orte des Unternehmens noch der Geocoder kennen diese Adresse: {address}. Senden Sie lat und lng oder korrigieren Sie die Adresse.',
  CUSTOMER_NOT_FOUND: 'Kunde {customer_id} ist kein Kundenkonto dieses Unternehmens.',
  AMOUNT_TOO_PRECISE: 'Der Betrag {amount} hat mehr Nachkommastellen, als {currency} erlaubt.',
  DRIVER_NOT_FOUND: 'In diesem Unternehmen gibt es keinen Fahrer {driver}.',
  JOB_NOT_FOUND: 'Unter den Aufträgen des Aufrufers gibt es keinen Job mit dieser ID.',
  SKILL_NOT_FOUND: 'Die Fähigkeit {code} ist nicht im Fähigkeitenkatalog des Unternehmens.',
  SKILLS_NOT_IN_CATALOGUE:
    'Diese Fähigkeiten sind nicht im Fähigkeitenkatalog des Unternehmens: {skills}. Legen Sie sie zuerst an (save_skill).',
  SKILL_IN_USE:
    'Die Fähigkeit {code} haben {drivers} Fahrer, und {orders} offene Aufträge verlangen sie: entfernen Sie sie dort zuerst.',
  SKILL_CATALOGUE_FULL:
    'Der Fähigkeitenkatalog fasst höchstens {limit} Fähigkeiten: entfernen Sie zuerst eine.',
  DRIVER_PROFILE_REQUIRED:
    'Fahrer {driver} hat noch kein Arbeitsprofil: legen Sie es zuerst fest (set_driver_profile).',
  ROUTE_DRIVER_LACKS_SKILLS:
    'Auftrag {order} ist auf Tour {route}, deren Fahrer {skills} fehlt: nehmen Sie den Auftrag von der Tour oder geben Sie dem Fahrer zuerst diese Fähigkeiten.',
  ORDER_SKILLS_LOCKED: 'Auftrag {order} ist {status}: die verlangten Fähigkeiten ändern sich nicht mehr.',
  DEPOT_NOT_FOUND: 'In diesem Unternehmen gibt es kein Depot {depot}.',
  ROUTE_NOT_FOUND: 'In diesem Unternehmen gibt es keine Tour {route}.',
  STOP_NOT_FOUND: 'Auftrag {order} ist kein Halt der Tour {route}.',
  PACKAGE_NOT_ON_ROUTE: 'Paket {number} gehört zu keinem Abholhalt der Tour {route}.',
  ROUTE_NOT_STARTED: 'Tour {route} wurde noch nicht gestartet: starten Sie sie zuerst.',
  ROUTE_FINISHED: 'Tour {route} ist beendet: es kann nichts mehr erfasst werden.',
  STOP_ALREADY_COMPLETED: 'Der Halt von Auftrag {order} auf Tour {route} ist bereits abgeschlossen.',
  STOP_IS_LOCKER_DROP:
    'Der Halt von Auftrag {order} ist eine Abgabe im Schließfach {site}: Die Einlage mit dem Einlagecode schließt ihn ab, und die Abholung durch den Empfänger stellt den Auftrag zu.',
  CLIENT_ID_REUSED:
    'client_id {client_id} wurde bereits für einen anderen Schreibvorgang verwendet: jeder braucht seine eigene.',
  OUTCOME_NOT_FOR_LEG: 'Das Ergebnis {outcome} passt nicht zu einem Halt vom Typ {leg}.',
  DEVICE_TIME_BEFORE_ROUTE_START:
    'device_time {device_time} liegt vor dem Start der Tour ({started_at}): Die Uhr des Telefons geht womöglich falsch.',
  DEVICE_TIME_OUT_OF_RANGE:
    'device_time {device_time} liegt mehr als 5 Minuten vor der Serverzeit oder ist älter als 7 Tage.',
  PLAN_VIOLATION:
    'Diese Änderung verletzt {count} Planungsregel(n), die die Touren einhielten; senden Sie confirm_violations: true, um sie trotzdem auszuführen.',
  STOP_NOT_MOVABLE: 'Der Stopp des Auftrags {order} ist bereits {status}: er bleibt, wo er ist.',
  ROUTE_PAST_MIDNIGHT:
    'Die Tour {route} würde nach Mitternacht enden ({return_time}): Eine Tour wird innerhalb ihres Tages geplant. Nehmen Sie Stopps heraus oder verlegen Sie sie auf eine andere Tour.',
  STOP_NOT_ON_ROUTE: 'Der Auftrag {order} ist kein Stopp der Tour {route}.',
  ORDER_NOT_PLANNABLE: 'Der Auftrag {order} wartet nicht darauf, am {date} geplant zu werden.',
  VEHICLE_NOT_FOUND: 'In diesem Unternehmen gibt es kein aktives Fahrzeug {vehicle}.',
  SUGGESTION_NOT_FOUND:
    'Keine Empfehlung {suggestion} für {date} in diesem Unternehmen: Der Tag hat sich seit dem Lesen geändert. Lesen Sie die Empfehlungen erneut.',
  SEQUENCE_INVALID:
    'Die angegebenen Stopps passen nicht zur Tour {route}: Positionen reichen von {first} bis {last}, und jeder offene Stopp wird genau einmal genannt.',
  DRIVER_WITHOUT_DEPOT: 'Der Fahrer {driver} hat kein Arbeitsprofil mit einem Depot.',
  DATE_IN_PAST: 'Für {date} können keine Touren geplant werden: In diesem Unternehmen ist bereits {today}.',
  CONTRACTOR_RULE_NOT_FOUND: 'In diesem Unternehmen gibt es keine Subunternehmerregel {rule}.',
  CONTRACTOR_NOT_ENGAGED: 'Das Subunternehmen {company} arbeitet nicht für dieses Unternehmen.',
  BUSINESS_REQUIRED: 'Dieses Konto arbeitet für mehrere Unternehmen: Geben Sie eines mit business_id an.',
  MODULE_DISABLED:
    'Das Modul für die Auftragszuweisung an Subunternehmer ist für dieses Unternehmen nicht aktiviert.',
  MODULE_UNAVAILABLE: 'Die Auftragszuweisung an Subunternehmer ist auf diesem System noch nicht verfügbar.',
  CONTRACTOR_NOT_FOUND: 'Kein Subunternehmerkonto {broker} arbeitet für dieses Unternehmen.',
  ORDER_ON_ROUTE: 'Auftrag {order} ist auf einer Tour; nehmen Sie ihn zuerst von der Tour.',
  ORDER_NOT_SELF_DELIVERY: 'Auftrag {order} ist kein Auftrag in Eigenzustellung.',
  ORDER_NOT_ASSIGNABLE:
    'Auftrag {order} ist {status}; nur neue oder zurückgehaltene Aufträge können zugewiesen werden.',
  ORDER_HELD_BY_CARRIER: 'Auftrag {order} liegt beim Frachtführer {carrier}.',
  ORDER_NOT_ASSIGNED: 'Auftrag {order} hat keine aktive Zuweisung an einen Subunternehmer.',
  ORDER_ALREADY_ASSIGNED: 'Auftrag {order} ist diesem Subunternehmer bereits zugewiesen.',
  WEBHOOK_DELIVERY_NOT_FOUND: 'In diesem Unternehmen gibt es keine Webhook-Zustellung {delivery}.',
  WEBHOOK_SECRET_MISSING:
    'Speichern Sie zuerst die Webhook-Einstellungen: Es gibt noch kein Signaturgeheimnis.',
  WEBHOOK_URL_REFUSED: 'Diese URL darf nicht aufgerufen werden: {reason}',
  PRICE_HIDDEN_SETTLE_OFFLINE:
    'Preise für {family}-Aufträge werden offline mit Ihrem Anbieter abgerechnet: Online-Zahlung ist nicht verfügbar.',
  NOTHING_TO_PAY: 'Auftrag {order} hat keinen zu zahlenden Preis.',
  ORDER_ALREADY_PAID: 'Auftrag {order} ist bereits bezahlt.',
  DRY_RUN_UNAVAILABLE:
    'Ein Probelauf kann dies nicht zeigen: Dafür wäre {effect} nötig, was ein Probelauf nicht tut. Senden Sie die Anfrage ohne X-Dry-Run.',
  PAYMENT_DECLINED: 'Die Zahlung wurde abgelehnt; es wurde nichts belastet.',
  INSUFFICIENT_CREDIT: 'Nicht genug Guthaben in {currency}, um diesen Auftrag zu bezahlen.',
  CARD_TOKEN_REQUIRED: 'Die Kartenzahlung benötigt ein card_token des Zahlungsanbieters.',
  ID_TOKEN_INVALID: 'Das ID-Token des Identitätsanbieters ist für diese App nicht gültig.',
  IDENTITY_NOT_REGISTERED:
    'Mit dieser Identität ist kein Konto verknüpft, und diese App registriert keine neuen Konten.',
  APP_UNAVAILABLE: 'Die App {app} ist für den Kunden {client} derzeit nicht verfügbar.',
  APP_SIGN_IN_REFUSED: 'Dieses Konto kann sich bei dieser App für diesen Kunden nicht anmelden.',
  APP_NOT_FOUND: 'Es gibt keine App {app} für den Kunden {client}.',
  IDENTITY_PROVIDER_NOT_FOUND: 'Es ist kein Identitätsanbieter {idp} eingerichtet.',
  IDENTITY_PROVIDER_UNREACHABLE: 'Der Identitätsanbieter {issuer} ist nicht erreichbar.',
  GEOCODER_UNAVAILABLE: 'Der Geocoder kann gerade nicht antworten: {reason}. Versuchen Sie es später erneut.',
  TRACKING_NOT_FOUND: 'Die Sendungsnummer {number} ist unbekannt.',
  TRACKING_PROVIDER_NOT_FOUND: 'In diesem Unternehmen gibt es keinen aktiven Tracking-Anbieter {provider}.',
  UNKNOWN_FORMAT: 'Unbekanntes Format {format}. Bekannte Formate: {formats}.',
  PROVIDER_CREDENTIAL_REQUIRED:
    'Senden Sie einen gültigen Tracking-Anbieterschlüssel im Header X-OTEP-Provider-Key.',
  OTEP_INVALID: 'Die Tracking-Ereignisse sind kein gültiges OTEP; nichts wurde gespeichert.',
  OTEP_TOO_MANY_EVENTS: 'Höchstens {max} Ereignisse pro Anfrage.',
  ORDER_NOT_ASSIGNED_TO_YOU: 'Auftrag {order} ist Ihnen nicht zugewiesen.',
  SERVICE_UNAVAILABLE:
    'Der Dienst ist vorübergehend nicht verfügbar. Bitte versuchen Sie es gleich noch einmal.',
  CARRIER_NOT_FOUND: 'In diesem Unternehmen gibt es keinen aktiven Versanddienstleister {carrier}.',
  CARRIER_SERVICE_NOT_FOUND: 'Der Versanddienstleister {carrier} hat keinen Service {service}.',
  LABEL_NOT_FOUND: 'In diesem Unternehmen gibt es kein Versandetikett mit der Sendungsnummer {number}.',
  RATE_CHANGED:
    'Der Tarif {rate_id} gilt nicht mehr: Fordern Sie ein neues Angebot an und verwenden Sie die neue rate_id.',
  RATE_UNAVAILABLE:
    'Der Versanddienstleister {carrier} kann diese Sendung mit dem Service {service} nicht befördern ({reason}).',
  NO_CARRIER_AVAILABLE: 'Kein Versandservice dieses Unternehmens kann diese Sendung befördern.',
  CARRIER_CURRENCY_MISMATCH:
    'Diese Tariftabelle ist in {currency}, die anderen Versanddienstleister des Unternehmens rechnen in {expected} ab.',
  ACCOUNT_PENDING_APPROVAL:
    'Dieses Konto wartet auf die Freigabe durch das Unternehmen. Sie können sich anmelden, sobald es freigegeben ist.',
  REGISTRATION_NOT_FOUND: 'In diesem Unternehmen gibt es keine Fahrerregistrierung {id}.',
  ALREADY_EXISTS: 'Dies steht im Konflikt mit etwas, das bereits existiert.',
  REFERENCE_CONFLICT:
    'Dies verweist auf etwas, das nicht existiert, oder etwas anderes verweist noch darauf.',
  CONCURRENT_UPDATE: 'Jemand anderes hat dieselben Daten im selben Moment geändert. Bitte erneut versuchen.',
  INVALID_VALUE: 'Ein Wert liegt außerhalb des Bereichs oder der Form, die der Dienst speichern kann.',
  CONFIRMATION_REQUIRED:
    '{operation} ist eine Aktion mit hohem Risiko: Bestätigen Sie sie mit confirm=true (Agenten-Tools) oder dem Header X-Confirm: 1.',
  FEATURE_DISABLED: '{feature} ist für dieses Unternehmen nicht eingeschaltet.',
  PROPOSAL_NOT_FOUND: 'Kein Schreibvorschlag {id} in diesem Unternehmen.',
  PROPOSAL_DECIDED: 'Über den Schreibvorschlag {id} wurde bereits entschieden ({status}).',
  SUGGESTION_WITHOUT_WRITE:
    'Empfehlung {suggestion} nennt keine Änderung, die sie behebt: Es gibt nichts vorzuschlagen. Ihr Grund sagt, warum.',
  PROPOSAL_EXPIRED: 'Der Schreibvorschlag {id} ist abgelaufen, bevor jemand entschied.',
  OWN_PROPOSAL:
    'Das Token, das diesen Schreibvorgang vorgeschlagen hat, kann ihn nicht genehmigen: Das muss eine Person (oder ein anderes Token) tun.',
  TOOL_NOT_PROPOSABLE:
    '{tool} kann nicht vorgeschlagen werden: nur schreibende Werkzeuge des Agentenservers, nicht die der Genehmigungswarteschlange selbst (entscheiden muss eine Person).',
  POI_NOT_FOUND: 'Kein Ort von Interesse {id} in diesem Unternehmen.',
  ALLIANCE_NOT_FOUND: 'Keine Allianz {id}, der dieses Unternehmen angehört oder zu der es eingeladen ist.',
  ALLIANCE_MEMBER_NOT_FOUND: '{code} ist weder Mitglied dieser Allianz noch eingeladen.',
  ALLIANCE_OWNER_ONLY: 'Nur das Unternehmen, dem die Allianz gehört, darf das tun.',
  CLIENT_NOT_ACCESSIBLE: 'Dieses Unternehmen teilt diese Daten nicht mit Ihrem.',
  ALLIANCE_ALREADY_MEMBER: 'Dieses Unternehmen ist bereits Mitglied der Allianz.',
  ALLIANCE_ALREADY_INVITED: 'Dieses Unternehmen ist bereits zur Allianz eingeladen.',
  ALLIANCE_NOT_INVITED:
    'Es gibt keine Einladung abzulehnen: Dieses Unternehmen ist bereits Mitglied (verlassen Sie stattdessen die Allianz).',
  ALLIANCE_INVITATION_PENDING:
    'Dieses Unternehmen ist nur eingeladen: Nehmen Sie die Einladung zuerst an (oder lehnen Sie sie ab).',
  ALLIANCE_OWNER_CANNOT_LEAVE:
    'Der Eigentümer kann die Allianz nicht verlassen und nicht entfernt werden, solange andere Unternehmen darin sind: Entfernen Sie sie oder lösen Sie die Allianz auf.',
  ADDRESS_NOT_FOUND: 'Keine gespeicherte Adresse {id} in diesem Adressbuch.',
  CSV_UNREADABLE: 'Die CSV-Datei ist nicht lesbar: {reason}',
  CSV_TOO_LONG: 'Die CSV-Datei hat mehr als {limit} Zeilen; teilen Sie sie auf.',
  DATASET_GROUP_NOT_FOUND: 'Keine Datensatzgruppe {id} in diesem Unternehmen.',
  DATASET_NOT_FOUND: 'Kein Datensatz {id} in diesem Unternehmen.',
  DATASET_RECORD_NOT_FOUND: 'Kein Eintrag {id} in diesem Datensatz.',
  DATASET_GROUP_NOT_EMPTY:
    'Die Datensatzgruppe {id} enthält noch {count} Datensätze: verschieben Sie sie zuerst oder löschen Sie sie mit ungroup_datasets.',
  DATASET_SCHEMA_CONFLICT:
    'Die neuen Felder würden {count} vorhandene Einträge ungültig machen; details nennt sie. Ändern Sie diese Einträge zuerst.',
  DATASET_FULL: 'Der Datensatz {id} hätte mehr als {limit} Einträge.',
  RETURN_REASON_NOT_FOUND: '{code} ist keiner der Rücksendegründe des Unternehmens.',
  SAVED_ADDRESS_NOT_FOUND:
    'Keine gespeicherte Adresse {id} in den Adressbüchern, die dieser Auftrag nutzen darf.',
  RETURN_REASON_REQUIRED: 'Eine Rücksendung nennt einen der Rücksendegründe des Unternehmens: {codes}.',
  RETURN_PHOTO_REQUIRED:
    'Der Rücksendegrund {code} verlangt ein Foto: Fügen Sie es in proof_of_delivery.photo_urls hinzu.',
  REGISTRATION_ALREADY_DECIDED: 'Über die Fahrerregistrierung {id} wurde bereits entschieden ({status}).',
  QUERY_TOO_COMPLEX:
    'Die Abfrage verlangt zu viel: {measure} = {found}, über der Grenze von {limit}. Fragen Sie in einer Anfrage weniger ab (weniger Aliase, kleinere Seiten, weniger Verschachtelung).',
  WAREHOUSE_NOT_FOUND: 'Kein Lager {id} in diesem Unternehmen.',
  WAREHOUSE_LOCATION_NOT_FOUND: 'Kein Lagerplatz {id} in diesem Lager.',
  TRANSFER_NOT_FOUND: 'Keine Lagerumbuchung {id} in diesem Unternehmen.',
  WAREHOUSE_ROLE_REQUIRED:
    'Sie haben keine Lagerrolle im Lager {code}: ein Kunden-Administrator vergibt sie.',
  PACKAGE_IN_OTHER_WAREHOUSE:
    'Paket {number} liegt in einem anderen Lager: buchen Sie es um, statt es hier anzunehmen.',
  PACKAGE_NOT_IN_WAREHOUSE: 'Paket {number} ist nicht in diesem Lager: nehmen Sie es zuerst an.',
  LOCATION_FULL: 'Lagerplatz {code} ist voll: er hält so viele Pakete, wie seine Kapazität erlaubt.',
  CAPACITY_BELOW_OCCUPIED:
    'Lagerplatz {code} hält {occupied} Paket(e): seine Kapazität kann nicht darunter gesetzt werden.',
  LOCATION_IN_USE:
    'Lagerplatz {code} ist die Bereitstellungsspur einer Tour von heute oder später: bis dahin bleibt er eine Spur.',
  STOCK_NOT_ENOUGH: 'Nicht genug {sku} an diesem Platz, um es zu bewegen.',
  SCAN_ID_REUSED:
    'Der Scan {scan} wurde in diesem Lager schon für eine andere Bewegung verwendet: Geben Sie jedem Scan eine eigene ID.',
  NO_STAGING_LANE:
    'Jede Bereitstellungsspur dieses Lagers dient am {date} schon einer Tour: legen Sie eine weitere an.',
  ROUTE_ALREADY_DISPATCHED: 'Tour {route} ist bereits abgefertigt: es kann nichts mehr geladen werden.',
  TRANSFER_REFUSED: 'Die Umbuchung hat nichts bewegt: {count} Paket(e) können nicht umgebucht werden.',
  TRANSFER_NOT_REVERSIBLE:
    'Umbuchung {id} kann nicht rückgängig gemacht werden: sie wurde es schon, oder Pakete haben sich seitdem bewegt.',
  LABEL_IMAGES_NOT_KEPT:
    'Dieses Unternehmen bewahrt keine Etikettenbilder auf: Senden Sie den Auftrag ohne Bild oder setzen Sie zuerst keep_label_images_days.',
  SMS_MARKETING_DISABLED: 'SMS-Marketing ist für dieses Unternehmen nicht eingeschaltet.',
  SMS_SUBSCRIBER_NOT_FOUND: 'Kein SMS-Abonnent mit dieser ID im Unternehmen.',
  SMS_LINK_INVALID: 'Dieser Bestätigungslink ist ungültig.',
  SMS_WEBHOOK_UNVERIFIED:
    'Dieser Aufruf des SMS-Anbieters ist nicht mit dem Anbietergeheimnis des Unternehmens signiert.',
  SMS_SEGMENT_NOT_FOUND: 'Kein SMS-Segment {id} vorhanden.',
  SMS_CAMPAIGN_NOT_FOUND: 'Keine SMS-Kampagne {id} vorhanden.',
  SMS_SEGMENT_IN_USE: 'Segment {id} wird von Kampagne {campaign} verwendet, die noch nicht beendet ist.',
  SMS_CAMPAIGN_WRONG_STATE: 'Kampagne {id} ist im Status {status}: {action} ist jetzt nicht möglich.',
  ORDER_CHAT_CLOSED: 'Der Chat zu Auftrag {order} ist geschlossen: Öffnen Sie ihn wieder, um zu schreiben.',
  CUSTOMER_CHAT_OFF: 'Kundenchat ist für Auftrag {order} nicht erlaubt.',
  MAP_NOT_FOUND: 'Keine Karte {id} in diesem Unternehmen.',
  MAP_LINK_NOT_FOUND: 'Keine veröffentlichte Karte hat diesen Link: Er wurde womöglich widerrufen.',
  MAP_LAYER_NOT_FOUND: 'Die Karte {map} hat keine Ebene {layer}.',
  MAPS_FULL: 'Ein Unternehmen hat höchstens {limit} Karten: Löschen Sie zuerst eine.',
  FLEET_NOT_FOUND: 'Keine Flotte {fleet} in diesem Unternehmen.',
  FLEET_NAME_TAKEN: 'Das Unternehmen hat bereits eine Flotte namens „{name}“.',
  FLEETS_FULL: 'Ein Unternehmen hat höchstens {limit} Flotten: Löschen Sie zuerst eine.',
  FLEET_CAPTAIN_REQUIRED: 'Nur das Personal und die Kapitäne der Flotte {fleet} dürfen das.',
  SHIFT_PATTERN_NOT_FOUND: 'Kein Schichtmuster {pattern} in dieser Flotte.',
  SHIFT_PATTERNS_FULL: 'Eine Flotte hat höchstens {limit} Schichtmuster: Löschen Sie zuerst eines.',
  SHIFT_NOT_FOUND: 'Keine Schicht {shift} in dieser Flotte.',
  SHIFT_IN_PAST: 'Eine Schicht am {date} um {start} hätte in diesem Unternehmen bereits begonnen.',
  SHIFT_FULL: 'Die Schicht {shift} hat keinen freien Platz: Ihre {slots} Plätze sind vergeben.',
  SHIFT_STARTED:
    'Die Schicht {shift} hat am {date} um {start} begonnen: Sie lässt sich so nicht mehr ändern.',
  SHIFT_CANCELLED: 'Die Schicht {shift} ist abgesagt.',
  SHIFT_SLOTS_TAKEN:
    'Für die Schicht {shift} sind {signups} Fahrer eingetragen: Sie kann nicht weniger Plätze haben.',
  SIGNUP_NOT_FOUND: 'Fahrer {driver} ist nicht für die Schicht {shift} eingetragen.',
  SIGNUP_STATE_INVALID: 'Eine Eintragung kann nicht von {from} zu {to} wechseln.',
  ROUTE_ALREADY_CLAIMED:
    'Die Tour {route} hat ein anderer Fahrer zuerst übernommen. Sie können sich in ihre Warteliste eintragen.',
  ROUTE_NOT_ON_BOARD: 'Die Tour {route} steht auf keiner Tourentafel, die Sie sehen können.',
  ROUTE_NOT_PUBLISHABLE:
    'Die Tour {route} kann nicht auf eine Tafel: Das kann nur eine geplante Tour mit Fahrer, deren Stopps alle ausstehen (details.reason sagt, was im Weg steht).',
  ROUTE_ON_BOARD:
    'Die Tour {route} ist offen auf einer Tourentafel und hat keinen Fahrer: Holen Sie sie von der Tafel zurück, bevor Sie sie bearbeiten.',
  BOARD_ROUTE_OPEN:
    'Die Tour {route} ist offen auf der Tafel: Niemand hat sie, übernehmen Sie sie stattdessen.',
  BOARD_ROUTE_HELD: 'Sie haben die Tour {route} bereits.',
  BOARD_WINDOW_OVERLAP:
    'Die Tour {route} ({window}) überschneidet sich mit der Tour {other} ({other_window}), die der Fahrer an dem Tag bereits hat.',
  BOARD_OUTSIDE_SHIFT:
    'Die Tour {route} ({window}) liegt außerhalb der Schicht des Fahrers an dem Tag ({shifts}).',
  BOARD_WINDOW_PASSED:
    'Die Tour {route} sollte um {departure} abfahren: Sie kann nicht mehr übernommen oder vorgemerkt werden; ein Kapitän oder ein Disponent kann sie noch zuweisen.',
  BOARD_OFF_SHIFT:
    'Der Fahrer hat am {date} keine Schicht im Kalender der Flotte: Die Tour {route} kann nur an einem Schichttag übernommen werden; ein Kapitän oder ein Disponent kann sie noch zuweisen.',
  WITHDRAWAL_CUTOFF_PASSED:
    'Der Rückzug von der Tour {route} war bis {cutoff} möglich: Fragen Sie einen Kapitän oder einen Disponenten.',
  SERVICE_ZONE_NOT_FOUND: 'Keine Servicezone {id} in diesem Unternehmen.',
  SERVICE_ZONES_FULL: 'Ein Unternehmen hat höchstens {limit} Servicezonen: Löschen Sie zuerst eine.',
  RIDER_NOT_GRANTED:
    'Dieser Fahrer ist kein Sofortkurier: Das Unternehmen muss ihm zuerst die Sofortzustellung freigeben.',
  OFFER_NOT_FOUND: 'Ihnen wurde kein Angebot {offer} gemacht.',
  OFFER_ALREADY_TAKEN: 'Der Auftrag {order} wurde bereits von einem anderen Kurier übernommen.',
  OFFER_EXPIRED:
    'Das Angebot {offer} ist nicht mehr offen: Es ist abgelaufen, wurde abgelehnt oder zurückgezogen.',
  RIDER_BUSY:
    'Sie fahren noch den Sofortauftrag {order}: Schließen Sie ihn ab, bevor Sie einen weiteren annehmen.',
  RIDER_ON_ROUTE:
    'Sie fahren gerade die Tour {route}: Schließen Sie sie ab, bevor Sie einen Sofortauftrag annehmen.',
  AGENT_CONVERSATION_NOT_FOUND: 'Sie haben kein Agenten-Gespräch {id}.',
  AGENT_PROVIDER_NOT_CONFIGURED:
    'Für den Betriebsagenten ist kein Modellanbieter eingerichtet: setzen Sie AGENT_PROVIDER (openai oder anthropic), AGENT_API_KEY und bei Bedarf AGENT_MODEL oder AGENT_BASE_URL.',
  AGENT_PROVIDER_FAILED:
    'Der Modellanbieter hat mit einem Fehler geantwortet; nichts wurde gespeichert. Versuchen Sie es später erneut.',
  AGENT_PROVIDER_TIMEOUT:
    'Der Modellanbieter hat nicht rechtzeitig geantwortet; nichts wurde gespeichert. Versuchen Sie es später erneut.',
  DAILY_CAP_REACHED:
    'Ihr Unternehmen hat seine {cap} Agenten-Runden für heute verbraucht. Nach Mitternacht Ortszeit sind wieder Runden verfügbar.',
  PACKAGING_NOT_FOUND: 'Keine Verpackung {id} im Katalog dieses Unternehmens.',
  PACKING_PLAN_NOT_FOUND: 'Kein Packplan {id} in diesem Unternehmen.',
  LOADING_SPACE_NOT_FOUND:
    'Kein Laderaum {space}: Nennen Sie einen Standardladeraum mit seinem Code oder einen des Unternehmens mit seiner ID.',
  LOAD_PLAN_NOT_FOUND: 'Kein Ladeplan {id} in diesem Unternehmen.',
  LOAD_PLAN_ROUTE_GONE:
    'Der Ladeplan {id} wurde für die Tour {route} erstellt, die eine Neuplanung ihres Tages aufgelöst hat: Planen Sie die Ladung der Tour, auf der seine Aufträge jetzt sind.',
  PACKING_PLAN_INCOMPLETE:
    '{count} Stücke dieses Plans passen in keinen Karton: Ein Plan wird erst dann zu den Paketen eines Auftrags, wenn jedes Stück verpackt ist.',
  ORDER_PACKAGES_LOCKED:
    'Auftrag {order} ist {status}: Seine Pakete können nur vor der Abholung ersetzt werden.',
  ORDER_TOO_MANY_PACKAGES: 'Ein Auftrag hat höchstens {max} Pakete; dieser Plan hat {count}.',
  SOLVER_BUSY:
    'Die Planer sind mit anderen Plänen beschäftigt. Versuchen Sie es in {seconds} Sekunden erneut.',
  LABEL_READER_BUSY: 'Die Etikettenleser sind ausgelastet. Versuchen Sie es in {seconds} Sekunden erneut.',
  PACKAGING_CATALOG_FULL:
    'Ein Verpackungskatalog umfasst höchstens {limit} Kartontypen: Löschen oder verwenden Sie zuerst einen wieder.',
  LOADING_SPACES_FULL: 'Ein Unternehmen hat höchstens {limit} eigene Laderäume: Löschen Sie zuerst einen.',
  LOCKER_SITE_NOT_FOUND: 'Kein Schließfachstandort {id}, den Sie nutzen dürfen.',
  LOCKER_DEVICE_NOT_FOUND: 'Kein Schließfachgerät {id} an Ihren Standorten.',
  LOCKER_COMPARTMENT_NOT_FOUND: 'Kein Fach {id} an Ihren Standorten.',
  LOCKER_BOOKING_NOT_FOUND: 'Keine Schließfachbuchung {id}.',
  LOCKER_NO_COMPARTMENT_FREE: 'Derzeit nimmt kein freies Fach am Standort {site} dieses Paket auf.',
  LOCKER_QUOTA_EXHAUSTED:
    'Ihr Unternehmen hat am Standort {site} {quota} Fächer der Größe {size}, alle sind belegt.',
  LOCKER_CODE_WRONG: 'Dieser Code öffnet das Fach nicht. Noch {left} Versuche.',
  LOCKER_CODE_LOCKED:
    'Zu viele falsche Codes: Diese Buchung ist gesperrt. Bitten Sie den Absender um einen neuen Code.',
  LOCKER_CODE_EXPIRED: 'Dieser Code ist abgelaufen: Das Paket wurde nicht rechtzeitig abgeholt.',
  LOCKER_BOOKING_CLOSED: 'Diese Schließfachbuchung ist {state}: Das ist jetzt nicht möglich.',
  LOCKER_NOT_YOUR_HANDOVER:
    'Diese Übergabe erfolgt zwischen zwei benannten Personen, und Sie dürfen sie jetzt nicht öffnen.',
  LOCKER_COMPARTMENT_BUSY: 'Das Fach wird bereits geöffnet. Warten Sie einen Moment.',
  LOCKER_DEVICE_OFFLINE: 'Das Schließfach {device} ist offline und kann jetzt nicht öffnen.',
  LOCKER_COMPARTMENT_IN_USE: 'Fach {number} ist gebucht: Es kann nur im freien Zustand außer Betrieb gehen.',
  LOCKER_NUMBERS_TAKEN: 'Fachnummern müssen je Gerät eindeutig sein: {numbers}.',
  LOCKER_SITE_FULL: 'Ein Schließfachstandort hat höchstens {limit} Geräte.',
  LOCKER_ORDER_ON_BOARD:
    'Auftrag {order} ist {status} auf seiner Tour und kann daher nicht in den Planungspool zurück (nur ein Auftrag im Status PLANNED kann das). Stellen Sie ihn stattdessen auf seiner Tour ins Schließfach zu (Dispositionseinstellung locker_reservation: drop_at_locker).',
  LOCKER_SITE_NOT_PLACED:
    'Der Schließfachstandort {site} hat keine Koordinaten, daher kann die Tour von Auftrag {order} nicht dorthin geplant werden: Es wurde nichts reserviert.',
  LUGGAGE_TAG_TAKEN: 'Das Gepäcketikett {tag} gehört bereits zu einer Weitergabe dieses Unternehmens.',
  RESERVATION_RESOURCE_NOT_FOUND: 'Keine buchbare Ressource {id} hier.',
  RESERVATION_SLOT_NOT_OFFERED: '{starts_at} ist kein noch buchbarer Termin dieser Ressource.',
  RESERVATION_SLOT_FULL: 'Dieser Termin ist ausgebucht.',
  RESERVATION_NOT_FOUND: 'Keine solche Buchung.',
  RESERVATION_CODE_WRONG: 'Dieser Bestätigungscode ist nicht der, den wir gesendet haben.',
  RESERVATION_CODE_EXPIRED: 'Der Bestätigungscode ist abgelaufen: Bitte buchen Sie erneut.',
  RESERVATION_LINK_INVALID: 'Dieser Buchungslink ist ungültig.',
  RESERVATION_CLOSED: 'Diese Buchung ist {state}: Das ist jetzt nicht möglich.',
  RESERVATION_OFFER_EXPIRED:
    'Der angebotene Platz wurde nicht rechtzeitig angenommen und ging an die nächste wartende Person.',
  LOCKER_QUOTA_NOT_FOUND: 'Kein Schließfachkontingent {id}, das Ihr Unternehmen anbietet.',
  LUGGAGE_RELAY_NOT_FOUND: 'Keine Gepäckweitergabe {relay} in diesem Unternehmen.',
  TRACKING_PUSH_UNVERIFIED:
    'Diese Sendungsverfolgungs-Meldung ist nicht mit dem Webhook-Geheimnis des Unternehmens signiert.',
  TRACKING_PUSH_REPLAYED:
    'Diese Sendungsverfolgungs-Meldung wurde bereits empfangen oder ist zu alt: Sie wird abgelehnt.',
  SUITE_NOT_FOUND: 'Keine Weiterleitungsadresse {suite} in diesem Unternehmen.',
  SUITE_EXISTS: 'Dieser Kunde hat bereits die Weiterleitungsadresse {suite}.',
  INBOUND_PARCEL_NOT_FOUND: 'Kein eingehendes Paket {parcel} hier.',
  INBOUND_PARCEL_EXISTS: 'Das Paket {carrier} {number} ist bereits angekündigt.',
  INBOUND_PARCEL_STATE: 'Das Paket {parcel} ist {state}: Das ist jetzt nicht möglich.',
  CONSOLIDATION_NOT_FOUND: 'Keine Zusammenlegung {id} hier.',
  CONSOLIDATION_SHIPPED: 'Die Zusammenlegung {id} ist bereits versandt.',
  THIRD_PARTY_CONNECTION_NOT_FOUND: 'Keine Drittanbieter-Lieferverbindung {id} in diesem Unternehmen.',
  THIRD_PARTY_ORDER_NOT_FOUND: 'Kein Anbieterauftrag {id} in diesem Unternehmen.',
  THIRD_PARTY_ORDER_DECIDED: 'Anbieterauftrag {id} ist bereits {state}.',
  THIRD_PARTY_DEADLINE_PASSED:
    'Anbieterauftrag {id} musste bis {accept_by} angenommen oder abgelehnt werden: jetzt zu spät.',
  THIRD_PARTY_PUSH_REFUSED: 'Diese Übermittlung trägt nicht das Push-Token einer aktiven Verbindung.',
  THIRD_PARTY_URL_REFUSED: 'Diese Anbieter-URL darf nicht aufgerufen werden: {reason}',
  THIRD_PARTY_ADAPTER_UNKNOWN: 'Kein Anbieteradapter namens {adapter}.',
  THIRD_PARTY_PROVIDER_FAILED: 'Der Anbieter {provider} hat es nicht angenommen: {reason}',
  SMS_OFFER_CODE_NOT_FOUND: 'Kein solcher Angebotscode in diesem Unternehmen.',
  SMS_OFFER_CODE_EXPIRED: 'Dieser Angebotscode ist am {expires_at} abgelaufen.',
  SMS_OFFER_CODE_REDEEMED: 'Dieser Angebotscode wurde bereits am {redeemed_at} eingelöst.',
};
