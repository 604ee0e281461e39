import type { OtepEvent, OtepTimeline } from '../timeline.ts';
import { guideUrls } from '../urls.ts';
import {
  compact,
  eventText,
  locationLine,
  otepNamespace,
  type ProjectionContext,
  subjectIri,
  subjectKey,
} from './common.ts';

/**
 * OGC SensorThings API 1.1: the parcel's "status" Datastream with one category Observation per
 * event, in the deep-insert shape (Thing, Sensor and ObservedProperty inline), so the document
 * can be POSTed to a SensorThings server's /Datastreams as it is.
 */
export function sensorthings(timeline: OtepTimeline, { baseUrl }: ProjectionContext) {
  const journey = subjectKey(timeline.subject);
  return {
    name: `status of ${journey}`,
    description: 'OTEP status of the parcel: one Observation per tracking event',
    observationType: 'http://www.opengis.net/def/observationType/OGC-OM/2.0/OM_CategoryObservation',
    // A category has no unit: SensorThings wants the three members null.
    unitOfMeasurement: { name: null, symbol: null, definition: null },
    Thing: {
      name: journey,
      description: 'Parcel',
      properties: { ...timeline.subject, tracking_url: subjectIri(timeline.subject, baseUrl) },
    },
    Sensor: {
      name: 'OTEP tracking',
      description: 'Tracking events of the transport management service and its tracking providers',
      encodingType: 'text/html',
      metadata: guideUrls(baseUrl).html,
    },
    ObservedProperty: {
      name: 'status',
      definition: `${otepNamespace(baseUrl)}status_code`,
      description: 'OTEP status code of the parcel profile (the codebook)',
    },
    Observations: timeline.events.map(observation),
  };
}

function observation(event: OtepEvent) {
  const { location } = event;
  const hasPoint = location?.lat !== undefined && location?.lng !== undefined;
  return compact({
    phenomenonTime: event.occurred_at,
    resultTime: event.recorded_at || null,
    result: event.status_code,
    parameters: compact({
      event_id: event.event_id,
      phase: event.phase ?? undefined,
      description: eventText(event),
      source: event.source,
      location: location && (locationLine(location) || undefined),
      incident_reason: event.incident_reason,
    }),
    FeatureOfInterest: hasPoint
      ? {
          name: location!.name ?? location!.city ?? 'location',
          description: locationLine(location!),
          encodingType: 'application/geo+json',
          feature: { type: 'Point', coordinates: [location!.lng, location!.lat] },
        }
      : undefined,
  });
}
