import { codeEntry } from '../codebook.ts';
import type { OtepEvent, OtepLocation, OtepTimeline } from '../timeline.ts';
import {
  compact,
  eventIri,
  eventText,
  hasAny,
  inOtepNamespace,
  otepNamespace,
  type ProjectionContext,
  subjectIri,
} from './common.ts';

const UNCEFACT = 'https://vocabulary.uncefact.org/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';

/**
 * UN/CEFACT JSON-LD web vocabulary (the 22A release published at vocabulary.uncefact.org): the parcel as a Consignment whose `transportEvent`s are the
 * events, each with its Recommendation 24 status code in `typeCode`. `@vocab` makes the context
 * self-contained (nothing to fetch).
 */
export function uncefact(timeline: OtepTimeline, { baseUrl }: ProjectionContext) {
  return compact({
    '@context': { '@vocab': UNCEFACT, otep: otepNamespace(baseUrl), xsd: XSD },
    '@id': subjectIri(timeline.subject, baseUrl),
    '@type': 'Consignment',
    identifier: timeline.subject.tracking_number,
    transportEvent: timeline.events.map((event) => transportEvent(event, baseUrl)),
  });
}

function transportEvent(event: OtepEvent, baseUrl: string) {
  return compact({
    '@id': eventIri(baseUrl, event.event_id),
    '@type': 'TransportEvent',
    identifier: event.event_id,
    typeCode: codeEntry(event.status_code)?.rec24.toString(),
    description: eventText(event),
    actualOccurrenceDateTime: event.occurred_at,
    occurrenceLogisticsLocation: hasAny(event.location) ? logisticsLocation(event.location!) : undefined,
    'otep:status_code': event.status_code,
    'otep:incident_reason': event.incident_reason && inOtepNamespace(event.incident_reason),
  });
}

function logisticsLocation(place: OtepLocation) {
  const address = compact({
    '@type': 'TradeAddress',
    lineOne: place.address,
    postcodeCode: place.postal_code,
    cityName: place.city,
    countrySubDivisionName: place.region,
    // A member of the vocabulary's CountryId code list (ISO 3166-1 alpha-2), not the bare code.
    tradeAddressCountryId: place.country && { '@id': `${UNCEFACT}CountryId#${place.country}` },
  });
  const hasCoordinates = place.lat !== undefined && place.lng !== undefined;
  return compact({
    '@type': 'LogisticsLocation',
    identifier: place.gln,
    name: place.name,
    postalAddress: Object.keys(address).length > 1 ? address : undefined,
    physicalGeographicalCoordinate: hasCoordinates
      ? {
          '@type': 'GeographicalCoordinate',
          latitudeMeasure: degrees(place.lat!),
          longitudeMeasure: degrees(place.lng!),
        }
      : undefined,
  });
}

/**
 * A MeasureType, as the vocabulary's latitudeMeasure and longitudeMeasure want: decimal degrees
 * (ISO 6709) in an `xsd:decimal` literal, the value's range. A bare JSON number would read as
 * `xsd:double` (or `xsd:integer`) in RDF.
 */
function degrees(value: number) {
  return {
    '@type': 'MeasureType',
    MeasureTypeValue: { '@value': decimalLexical(value), '@type': 'xsd:decimal' },
  };
}

/** `50.0379`, `-73.9955`, `1e-7` → `0.0000001`: the number in xsd:decimal's lexical form (no exponent). */
export function decimalLexical(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  // Degrees are never large: an exponent here is a tiny fraction, spelled out in full.
  return value.toFixed(20).replace(/\.?0+$/, '');
}
