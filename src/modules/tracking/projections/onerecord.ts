import { codeEntry } from '../codebook.ts';
import type { OtepEvent, OtepLocation, OtepSubject, OtepTimeline } from '../timeline.ts';
import {
  compact,
  eventIri,
  eventText,
  hasAny,
  identifierIri,
  inOtepNamespace,
  otepNamespace,
  type ProjectionContext,
  subjectIri,
} from './common.ts';

const CARGO = 'https://onerecord.iata.org/ns/cargo#';
const STATUS_CODE_LIST = 'https://onerecord.iata.org/ns/code-lists/StatusCode#';
/**
 * The codebook's IATA codes that IATA's ONE Record StatusCode list holds (it has DIS only as
 * DIS_<reason> members, and no RTS): the others become a CodeListElement carrying the code.
 */
const IN_IATA_STATUS_LIST = new Set(['ARR', 'AWD', 'BKD', 'DEP', 'DLV', 'FOH', 'NFD', 'RCF', 'RCS']);

/**
 * IATA ONE Record data model 3.2 (ontology version `https://onerecord.iata.org/ns/cargo/3.2`, the
 * first with `cityName`): one LogisticsEvent per event, for the Piece (subject.piece_id) or else the
 * Shipment (the tracking resource), with eventCode, eventDate, eventTimeType ACTUAL and eventLocation.
 */
export function onerecord(timeline: OtepTimeline, { baseUrl }: ProjectionContext) {
  const eventFor = logisticsObject(timeline.subject, baseUrl);
  return {
    '@context': { cargo: CARGO, otep: otepNamespace(baseUrl), xsd: 'http://www.w3.org/2001/XMLSchema#' },
    '@graph': timeline.events.map((event) => logisticsEvent(event, eventFor, baseUrl)),
  };
}

function logisticsObject(subject: OtepSubject, baseUrl: string) {
  return subject.piece_id
    ? { '@id': identifierIri(baseUrl, 'piece_id', subject.piece_id), '@type': 'cargo:Piece' }
    : { '@id': subjectIri(subject, baseUrl), '@type': 'cargo:Shipment' };
}

function logisticsEvent(event: OtepEvent, eventFor: object, baseUrl: string) {
  return compact({
    '@id': eventIri(baseUrl, event.event_id),
    '@type': 'cargo:LogisticsEvent',
    'cargo:eventCode': eventCode(event),
    'cargo:eventName': eventText(event),
    'cargo:eventDate': dateTime(event.occurred_at),
    'cargo:creationDate': event.recorded_at ? dateTime(event.recorded_at) : undefined,
    'cargo:eventTimeType': { '@id': 'cargo:ACTUAL' },
    'cargo:eventFor': eventFor,
    'cargo:eventLocation': hasAny(event.location) ? location(event.location!) : undefined,
    'otep:status_code': event.status_code,
    'otep:incident_reason': event.incident_reason && inOtepNamespace(event.incident_reason),
  });
}

function eventCode(event: OtepEvent) {
  const entry = codeEntry(event.status_code);
  if (entry && IN_IATA_STATUS_LIST.has(entry.iata)) return { '@id': `${STATUS_CODE_LIST}${entry.iata}` };
  return compact({
    '@type': 'cargo:CodeListElement',
    'cargo:code': entry?.iata ?? event.status_code,
    'cargo:codeListName': entry ? 'IATA status codes' : 'OTEP parcel status codes',
    'cargo:codeDescription': entry?.description,
  });
}

function dateTime(value: string) {
  return { '@type': 'xsd:dateTime', '@value': value };
}

function location(place: OtepLocation) {
  const address = compact({
    '@type': 'cargo:Address',
    'cargo:streetAddressLines': place.address ? [place.address] : undefined,
    // cargo:postalCode is a CodeListElement; the text of a postcode is textualPostCode.
    'cargo:textualPostCode': place.postal_code,
    'cargo:cityName': place.city,
    'cargo:regionCode': place.region === undefined ? undefined : regionCode(place.region, place.country),
    'cargo:country': place.country && codeListElement(place.country, 'ISO 3166-1 alpha-2'),
  });
  const hasCoordinates = place.lat !== undefined && place.lng !== undefined;
  return compact({
    '@type': 'cargo:Location',
    'cargo:locationName': place.name,
    'cargo:locationCodes': place.gln ? [codeListElement(place.gln, 'GS1 GLN')] : undefined,
    'cargo:address': Object.keys(address).length > 1 ? address : undefined,
    'cargo:geolocation': hasCoordinates
      ? {
          '@type': 'cargo:Geolocation',
          'cargo:latitude': double(place.lat!),
          'cargo:longitude': double(place.lng!),
        }
      : undefined,
  });
}

function codeListElement(code: string, listName: string) {
  return { '@type': 'cargo:CodeListElement', 'cargo:code': code, 'cargo:codeListName': listName };
}

/**
 * ONE Record has no region name, only `regionCode` (ISO 3166-2). A subdivision code (`HE`) with its
 * country becomes `DE-HE`; a region given by name stays a name, as the element's description.
 */
function regionCode(region: string, country: string | undefined) {
  if (country && /^[A-Z0-9]{1,3}$/.test(region)) return codeListElement(`${country}-${region}`, 'ISO 3166-2');
  return { '@type': 'cargo:CodeListElement', 'cargo:codeDescription': region };
}

/** Typed, so that a whole number (`50`) is still the xsd:double the ontology asks for. */
function double(value: number) {
  return { '@type': 'xsd:double', '@value': value };
}
