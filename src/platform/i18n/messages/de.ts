import type { ErrorMessages } from './en.ts';

export const de: ErrorMessages = {
  BAD_REQUEST: 'Die Anfrage ist fehlerhaft aufgebaut.',
  INVALID_JSON: 'Der Anfragetext ist kein gültiges JSON.',
  UNAUTHENTICATED:
    'Bitte zuerst anmelden: Senden Sie ein gültiges, nicht abgelaufenes Zugriffstoken als „Authorization: Bearer <Token>“.',
  INVALID_CREDENTIALS: 'E-Mail-Adresse oder Passwort ist falsch.',
  FORBIDDEN: 'Ihr Konto darf diese Aktion nicht ausführen.',
  INSUFFICIENT_SCOPE: 'Ihrem Zugriffstoken fehlt die benötigte Berechtigung: {scopes}.',
  ACCOUNT_DISABLED: 'Dieses Konto ist deaktiviert. Bitten Sie Ihre Administration, es freizuschalten.',
  ENDPOINT_NOT_FOUND: 'Es gibt keinen Endpunkt {method} {path}.',
  USER_NOT_FOUND: 'Es gibt keinen Benutzer mit dieser E-Mail-Adresse oder ID.',
  BUSINESS_NOT_FOUND: 'Es gibt kein Unternehmen mit diesem Code oder dieser ID.',
  EMAIL_TAKEN: 'Ein Benutzer mit dieser E-Mail-Adresse existiert bereits.',
  BUSINESS_CODE_TAKEN: 'Ein Unternehmen mit diesem Code existiert bereits.',
  PAYLOAD_TOO_LARGE: 'Der Anfragetext überschreitet die Grenze von {limit} Bytes.',
  UNSUPPORTED_MEDIA_TYPE: 'Der Anfragetext muss als application/json gesendet werden.',
  VALIDATION_FAILED: 'Einige Felder sind ungültig: {fields}.',
  RATE_LIMITED: 'Zu viele Versuche. Versuchen Sie es in {seconds} Sekunden erneut.',
  INTERNAL_ERROR: 'Bei uns ist ein Fehler aufgetreten. Nennen Sie dem Support die Anfrage-ID {request_id}.',
  ORDER_NOT_FOUND: 'In diesem Unternehmen gibt es keinen Auftrag {order}.',
  ORDER_REF_TAKEN: 'Die Auftragsreferenz {order_ref} wird in diesem Unternehmen bereits verwendet.',
  ILLEGAL_STATUS_TRANSITION: 'Ein Auftrag im Status {from} kann nicht in {to} wechseln.',
  CUSTOMER_NOT_FOUND: 'Kunde {customer_id} ist kein Kundenkonto dieses Unternehmens.',
  AMOUNT_TOO_PRECISE: 'Der Betrag {amount} hat mehr Nachkommastellen, als {currency} erlaubt.',
  DRIVER_NOT_FOUND: 'In diesem Unternehmen gibt es keinen Fahrer {driver}.',
  DEPOT_NOT_FOUND: 'In diesem Unternehmen gibt es kein Depot {depot}.',
  ROUTE_NOT_FOUND: 'In diesem Unternehmen gibt es keine Tour {route}.',
  SERVICE_UNAVAILABLE:
    'Der Dienst ist vorübergehend nicht verfügbar. Bitte versuchen Sie es gleich noch einmal.',
};
