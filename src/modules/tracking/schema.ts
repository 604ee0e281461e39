import {
  CODE_ALIASES,
  CODEBOOK,
  DEFAULT_PROFILE,
  DEFAULT_SOURCE_TYPE,
  INCIDENT_REASONS,
  OTEP_VERSION,
  PHASES,
  type Phase,
  PROFILES,
  SOURCE_TYPES,
  statusUri,
} from './codebook.ts';
import { guideUrls } from './urls.ts';
import { COORDINATE_LIMITS, PATTERNS, SUBJECT_IDENTIFIERS, TEXT_FIELDS } from './validator.ts';

/**
 * The JSON Schema (draft 2020-12) of an OTEP timeline, built from the codebook and the
 * validator's own patterns and field lists so the two cannot drift. It states what the
 * validator's errors state; its warnings (ordering, experimental codes) are not schema matters.
 * Offsets are a `pattern` (the validator's RFC 3339 expression) beside `format: date-time`,
 * because JSON Schema validators need not assert formats.
 */

export function schemaUrl(baseUrl: string): string {
  return guideUrls(baseUrl).schema;
}

const IDENTIFIER_SCHEMAS = {
  text: { type: 'string', minLength: 1 },
  positive_integer: { type: 'integer', minimum: 1 },
  sscc: { type: 'string', pattern: PATTERNS.gs1Sscc },
};

const texts = (names: readonly string[]) =>
  Object.fromEntries(names.map((name) => [name, { type: 'string' }]));
const phaseForms = (phase: Phase) => [phase, `otep:phase:${phase}`];
/** A codebook code, short and addressed, with its aliases in both forms. */
const codeForms = (code: string) =>
  [code, ...Object.keys(CODE_ALIASES).filter((alias) => CODE_ALIASES[alias] === code)].flatMap((name) => [
    name,
    ...PROFILES.map((profile) => statusUri(name, profile)),
  ]);

/** Experimental codes, short (`x-…`) or addressed (`otep:parcel:x-…`). */
const EXPERIMENTAL_CODE = `^(?:otep:(?:${PROFILES.join('|')}):)?${PATTERNS.experimentalCode.slice(1)}`;

/** For each phase: a codebook code of that phase may only carry that phase (or none). */
const phaseAgreement = () =>
  PHASES.map((phase) => ({
    if: {
      type: 'object',
      required: ['status_code'],
      properties: {
        status_code: {
          enum: CODEBOOK.filter((entry) => entry.phase === phase).flatMap((entry) => codeForms(entry.code)),
        },
      },
    },
    // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword, not a promise.
    then: { properties: { phase: { enum: [...phaseForms(phase), null] } } },
  }));

export function timelineJsonSchema(baseUrl: string) {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: schemaUrl(baseUrl),
    title: 'OTEP timeline',
    description:
      'A tracking timeline in the open tracking event protocol: an envelope naming the subject and its events. ' +
      'Fields not listed are allowed and ignored (later minor versions add fields).',
    type: 'object',
    required: ['events'],
    // The envelope names the subject, unless every event names its own (an event's wins).
    anyOf: [
      { required: ['subject'] },
      {
        properties: {
          events: { type: 'array', minItems: 1, items: { type: 'object', required: ['subject'] } },
        },
      },
    ],
    properties: {
      otep_version: { $ref: '#/$defs/otepVersion', default: OTEP_VERSION },
      profile: { enum: [...PROFILES], default: DEFAULT_PROFILE },
      subject: { $ref: '#/$defs/subject' },
      current_status: { type: 'string' },
      delivered: { type: 'boolean' },
      projections: {
        description: 'External projections the timeline declares; a standard one is needed for level 2.',
        type: 'array',
        items: { type: 'string' },
      },
      events: { type: 'array', items: { $ref: '#/$defs/event' } },
    },
    $defs: {
      otepVersion: { type: 'string', pattern: PATTERNS.otepVersion },
      dateTime: {
        description: 'RFC 3339 date-time with seconds and an explicit offset (Z or ±hh:mm).',
        type: 'string',
        format: 'date-time',
        pattern: PATTERNS.offsetDateTime,
      },
      subject: {
        type: 'object',
        properties: Object.fromEntries(
          Object.entries(SUBJECT_IDENTIFIERS).map(([name, kind]) => [name, IDENTIFIER_SCHEMAS[kind]]),
        ),
        anyOf: Object.keys(SUBJECT_IDENTIFIERS).map((name) => ({ required: [name] })),
      },
      statusCode: {
        description: `A codebook code, short or addressed (aliases: ${Object.entries(CODE_ALIASES)
          .map(([alias, code]) => `${alias} for ${code}`)
          .join(', ')}), or an experimental x- code.`,
        anyOf: [
          { enum: CODEBOOK.flatMap((entry) => codeForms(entry.code)) },
          { type: 'string', pattern: EXPERIMENTAL_CODE },
        ],
      },
      phase: { enum: [...PHASES.flatMap(phaseForms), null] },
      source: {
        type: 'object',
        required: ['type'],
        properties: { type: { enum: [...SOURCE_TYPES] }, ...texts(TEXT_FIELDS.source) },
      },
      location: {
        type: 'object',
        properties: {
          ...texts(TEXT_FIELDS.location),
          country: { type: 'string', pattern: PATTERNS.country },
          lat: { type: 'number', minimum: -COORDINATE_LIMITS.lat, maximum: COORDINATE_LIMITS.lat },
          lng: { type: 'number', minimum: -COORDINATE_LIMITS.lng, maximum: COORDINATE_LIMITS.lng },
          gln: { type: 'string', pattern: PATTERNS.gln },
        },
      },
      incidentReason: {
        type: 'object',
        required: ['code'],
        properties: { code: { enum: [...INCIDENT_REASONS] }, ...texts(TEXT_FIELDS.incident_reason) },
      },
      pod: {
        type: 'object',
        properties: {
          ...texts(TEXT_FIELDS.pod),
          photo_urls: { type: 'array', items: { type: 'string' } },
        },
      },
      event: {
        type: 'object',
        required: ['occurred_at', 'status_code'],
        properties: {
          otep_version: { $ref: '#/$defs/otepVersion' },
          occurred_at: { $ref: '#/$defs/dateTime' },
          recorded_at: { $ref: '#/$defs/dateTime' },
          status_code: { $ref: '#/$defs/statusCode' },
          phase: { $ref: '#/$defs/phase' },
          source: { $ref: '#/$defs/source', default: { type: DEFAULT_SOURCE_TYPE } },
          location: { $ref: '#/$defs/location' },
          incident_reason: { $ref: '#/$defs/incidentReason' },
          pod: { $ref: '#/$defs/pod' },
          subject: { $ref: '#/$defs/subject' },
          ...texts(TEXT_FIELDS.event),
        },
        allOf: phaseAgreement(),
      },
    },
  };
}
