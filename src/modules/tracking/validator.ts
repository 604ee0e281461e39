import type { MessageParams } from '../../platform/errors.ts';
import type { Language } from '../../platform/i18n/index.ts';
import {
  type CodeEntry,
  codeEntry,
  INCIDENT_REASONS,
  isExperimental,
  OTEP_VERSION,
  PHASES,
  type Phase,
  PROFILES,
  SOURCE_TYPES,
  shortCode,
  shortPhase,
} from './codebook.ts';
import type { OtepSubject } from './timeline.ts';
import { ISSUE_CODES, type IssueCode, issueMessage } from './validator-messages.ts';

/**
 * The OTEP conformance validator (contract in docs/otep.md). Pure: it reads only its input and
 * the codebook, so the validate endpoint, ingest and tests all get the same answer.
 */

export interface Issue {
  path: string;
  code: string;
  message: string;
}

export type ConformanceLevel = 0 | 1 | 2;

export interface ValidationReport {
  conformant: boolean;
  level: ConformanceLevel;
  errors: Issue[];
  warnings: Issue[];
}

const SUPPORTED_MAJOR = OTEP_VERSION.split('.')[0]!;

/** The regular expressions the validator applies; the JSON Schema publishes the same strings. */
export const PATTERNS = {
  /** RFC 3339: seconds and an explicit offset are required. Groups feed the calendar check. */
  offsetDateTime:
    '^(\\d{4})-(\\d{2})-(\\d{2})T(\\d{2}):(\\d{2}):(\\d{2})(?:\\.\\d+)?(?:Z|[+-](\\d{2}):(\\d{2}))$',
  /** Any minor or patch of the major version we read: minor versions only add codes and fields. */
  otepVersion: `^${SUPPORTED_MAJOR}\\.\\d+(?:\\.\\d+)?$`,
  /** Short form of an experimental code, as codebook.isExperimental reads it. */
  experimentalCode: '^x-[a-z0-9_-]+$',
  gs1Sscc: '^\\d{18}$',
  gln: '^\\d{13}$',
  /** Shape of ISO 3166-1 alpha-2, as the orders module checks it. */
  country: '^[A-Z]{2}$',
} as const;

const OFFSET_DATE_TIME = new RegExp(PATTERNS.offsetDateTime);
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/;
const OTEP_VERSION_PATTERN = new RegExp(PATTERNS.otepVersion);
const SSCC = new RegExp(PATTERNS.gs1Sscc);
const GLN = new RegExp(PATTERNS.gln);
const COUNTRY = new RegExp(PATTERNS.country);

/** Each subject identifier and the shape its value must have. */
export const SUBJECT_IDENTIFIERS = {
  tracking_number: 'text',
  order_id: 'positive_integer',
  package_id: 'positive_integer',
  external_tracking_number: 'text',
  gs1_sscc: 'sscc',
  piece_id: 'text',
} as const satisfies Record<keyof OtepSubject, 'text' | 'positive_integer' | 'sscc'>;
/** The subject identifiers in order; projections name a journey by the first one its subject has. */
export const IDENTIFIER_NAMES = Object.keys(SUBJECT_IDENTIFIERS) as (keyof OtepSubject)[];

/** Optional free-text fields of each object: absent or a string. */
export const TEXT_FIELDS = {
  event: ['event_id', 'status_uri', 'description'],
  source: ['name', 'reference'],
  location: ['name', 'address', 'city', 'region', 'postal_code'],
  incident_reason: ['message'],
  pod: ['recipient', 'signature_url', 'note'],
} as const;

export const COORDINATE_LIMITS = { lat: 90, lng: 180 } as const;

/**
 * Projections onto external standards: declaring one (`projections` on the envelope) or
 * requesting one is what level 2 asks for. Storefront and aggregator views are not standards.
 */
export const STANDARD_PROJECTIONS = ['epcis', 'onerecord', 'uncefact', 'otlp', 'sensorthings'] as const;

const WARNING_CODES = new Set<IssueCode>([
  'experimental_status_code',
  'event_after_terminal',
  'phase_backwards',
  'events_not_sorted',
  'not_a_standard_projection',
]);

export function issueSeverity(code: IssueCode): 'error' | 'warning' {
  return WARNING_CODES.has(code) ? 'warning' : 'error';
}

/** Every issue code with its severity, for the guide and the docs. */
export function issueCatalog(): { code: IssueCode; severity: 'error' | 'warning' }[] {
  return ISSUE_CODES.map((code) => ({ code, severity: issueSeverity(code) }));
}

class Issues {
  readonly errors: Issue[] = [];
  readonly warnings: Issue[] = [];

  constructor(private readonly lang: Language) {}

  add(path: string, code: IssueCode, params: MessageParams = {}): void {
    const issue = { path, code, message: issueMessage(code, this.lang, { path, ...params }) };
    (issueSeverity(code) === 'warning' ? this.warnings : this.errors).push(issue);
  }
}

type JsonObject = Record<string, unknown>;

/** A JSON object: not null, not an array. */
export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const field = (path: string, name: string) => (path ? `${path}.${name}` : name);
const element = (path: string, index: number) => `${path}[${index}]`;
/** A value as it appears in a message: strings bare, anything else as JSON. */
const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
const list = (values: readonly string[]) => values.join(', ');

/** Epoch milliseconds of an RFC 3339 date-time with offset that names a real instant. */
function parseOffsetDateTime(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const parts = OFFSET_DATE_TIME.exec(value);
  if (!parts) return undefined;
  // Groups: year, month, day, hour, minute, second, offset hours, offset minutes (absent for Z).
  const group = (index: number) => Number(parts[index] ?? 0);
  const [year, month, day] = [group(1), group(2), group(3)];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const real =
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth &&
    group(4) <= 23 &&
    group(5) <= 59 &&
    group(6) <= 59 &&
    group(7) <= 23 &&
    group(8) <= 59;
  return real ? Date.parse(value) : undefined;
}

/** Absent is fine: the envelope's version defaults to OTEP_VERSION, an event's to the envelope's. */
function checkVersion(value: unknown, path: string, issues: Issues): void {
  if (value !== undefined && (typeof value !== 'string' || !OTEP_VERSION_PATTERN.test(value))) {
    issues.add(path, 'unsupported_otep_version', { version: shown(value), supported: OTEP_VERSION });
  }
}

/** Absent is fine: the profile defaults to DEFAULT_PROFILE. */
function checkProfile(value: unknown, issues: Issues): void {
  if (value !== undefined && !PROFILES.some((profile) => profile === value)) {
    issues.add('profile', 'unknown_profile', { profile: shown(value), profiles: list(PROFILES) });
  }
}

function checkIdentifier(
  value: unknown,
  kind: 'text' | 'positive_integer' | 'sscc',
  path: string,
  issues: Issues,
) {
  if (kind === 'text') {
    if (typeof value !== 'string') issues.add(path, 'expected_string');
    else if (value === '') issues.add(path, 'empty_identifier');
  } else if (kind === 'positive_integer') {
    if (!Number.isSafeInteger(value) || (value as number) < 1) issues.add(path, 'expected_positive_integer');
  } else if (typeof value !== 'string' || !SSCC.test(value)) {
    issues.add(path, 'bad_gs1_sscc');
  }
}

/**
 * A nested object, or undefined when absent or not an object. A non-object is always reported;
 * absence only when `missing` names the issue (a required object).
 */
function objectAt(value: unknown, path: string, issues: Issues, missing?: IssueCode): JsonObject | undefined {
  if (isObject(value)) return value;
  if (value !== undefined) issues.add(path, 'expected_object');
  else if (missing) issues.add(path, missing);
  return undefined;
}

function checkSubject(value: unknown, path: string, issues: Issues): void {
  const object = objectAt(value, path, issues, 'missing_subject');
  if (!object) return;
  const present = IDENTIFIER_NAMES.filter((name) => object[name] !== undefined);
  if (present.length === 0) {
    issues.add(path, 'subject_without_identifier', { identifiers: list(IDENTIFIER_NAMES) });
  }
  for (const name of present)
    checkIdentifier(object[name], SUBJECT_IDENTIFIERS[name], field(path, name), issues);
}

/**
 * Each event's subject is its own when it has one (it wins over the envelope's), else the
 * envelope's: the envelope's subject is required unless events carry their own. Without one on
 * the envelope, once some event carries a subject, each event without one is missing its own.
 * Events' own subjects are checked with their events.
 */
function checkSubjects(input: JsonObject, issues: Issues): void {
  const events = Array.isArray(input.events) ? input.events.filter(isObject) : [];
  const ownSubject = (event: JsonObject) => event.subject !== undefined;
  if (input.subject !== undefined || !events.some(ownSubject)) {
    checkSubject(input.subject, 'subject', issues);
    return;
  }
  (input.events as unknown[]).forEach((event, index) => {
    if (isObject(event) && !ownSubject(event)) {
      issues.add(field(element('events', index), 'subject'), 'missing_subject');
    }
  });
}

function checkTexts(object: JsonObject, names: readonly string[], path: string, issues: Issues): void {
  for (const name of names) {
    if (object[name] !== undefined && typeof object[name] !== 'string') {
      issues.add(field(path, name), 'expected_string');
    }
  }
}

function checkOccurredAt(value: unknown, path: string, issues: Issues): number | undefined {
  if (value === undefined) {
    issues.add(path, 'missing_occurred_at');
    return undefined;
  }
  if (typeof value === 'string' && LOCAL_DATE_TIME.test(value)) {
    issues.add(path, 'occurred_at_without_offset', { value });
    return undefined;
  }
  const instant = parseOffsetDateTime(value);
  if (instant === undefined) issues.add(path, 'bad_occurred_at', { value: shown(value) });
  return instant;
}

interface StatusFacts {
  code: string;
  /** Undefined for experimental codes. */
  entry?: CodeEntry;
}

function checkStatusCode(value: unknown, path: string, issues: Issues): StatusFacts | undefined {
  if (value === undefined) {
    issues.add(path, 'missing_status_code');
    return undefined;
  }
  const code = typeof value === 'string' ? shortCode(value) : undefined;
  const entry = code === undefined ? undefined : codeEntry(code);
  if (code !== undefined && entry) return { code, entry };
  if (code !== undefined && isExperimental(code)) {
    issues.add(path, 'experimental_status_code', { code });
    return { code };
  }
  issues.add(path, 'unknown_status_code', { code: shown(value) });
  return undefined;
}

const isPhase = (value: unknown): value is Phase => PHASES.some((phase) => phase === value);

/** The event's phase: the codebook's for a known code, else the one sent (experimental codes). */
function checkPhase(value: unknown, status: StatusFacts | undefined, path: string, issues: Issues) {
  const expected = status?.entry?.phase;
  // The service itself answers `phase: null` for experimental codes: null means "not sent".
  if (value === undefined || value === null) return expected;
  const phase = typeof value === 'string' ? shortPhase(value) : value;
  if (!isPhase(phase)) {
    issues.add(path, 'unknown_phase', { phase: shown(value), phases: list(PHASES) });
    return expected;
  }
  if (expected && phase !== expected) {
    issues.add(path, 'phase_mismatch', { phase, code: status!.code, expected });
  }
  return expected ?? phase;
}

/** Absent is fine: the source defaults to DEFAULT_SOURCE_TYPE (on ingest, named after the provider). */
function checkSource(value: unknown, path: string, issues: Issues): void {
  const object = objectAt(value, path, issues);
  if (!object) return;
  if (!SOURCE_TYPES.some((type) => type === object.type)) {
    issues.add(field(path, 'type'), 'bad_source_type', { types: list(SOURCE_TYPES) });
  }
  checkTexts(object, TEXT_FIELDS.source, path, issues);
}

function checkLocation(event: JsonObject, eventPath: string, issues: Issues): void {
  const path = field(eventPath, 'location');
  const location = objectAt(event.location, path, issues);
  if (!location) return;
  checkTexts(location, TEXT_FIELDS.location, path, issues);
  const { country, gln } = location;
  if (country !== undefined && (typeof country !== 'string' || !COUNTRY.test(country))) {
    issues.add(field(path, 'country'), 'bad_country', { value: shown(country) });
  }
  for (const [name, limit] of Object.entries(COORDINATE_LIMITS)) {
    const value = location[name];
    if (value === undefined) continue;
    if (typeof value !== 'number') issues.add(field(path, name), 'expected_number');
    else if (Math.abs(value) > limit) {
      issues.add(field(path, name), 'coordinate_out_of_range', { min: -limit, max: limit });
    }
  }
  if (gln !== undefined && (typeof gln !== 'string' || !GLN.test(gln))) {
    issues.add(field(path, 'gln'), 'bad_gln');
  }
}

function checkIncidentReason(event: JsonObject, eventPath: string, issues: Issues): void {
  const path = field(eventPath, 'incident_reason');
  const reason = objectAt(event.incident_reason, path, issues);
  if (!reason) return;
  if (!INCIDENT_REASONS.some((code) => code === reason.code)) {
    issues.add(field(path, 'code'), 'bad_incident_reason', { reasons: list(INCIDENT_REASONS) });
  }
  checkTexts(reason, TEXT_FIELDS.incident_reason, path, issues);
}

function checkPod(event: JsonObject, eventPath: string, issues: Issues): void {
  const path = field(eventPath, 'pod');
  const pod = objectAt(event.pod, path, issues);
  if (!pod) return;
  checkTexts(pod, TEXT_FIELDS.pod, path, issues);
  const photos = pod.photo_urls;
  if (photos !== undefined && !(Array.isArray(photos) && photos.every((url) => typeof url === 'string'))) {
    issues.add(field(path, 'photo_urls'), 'expected_string_array');
  }
}

/** What the ordering checks need to know of one event. */
interface EventFacts {
  path: string;
  instant: number | undefined;
  code: string | undefined;
  experimental: boolean;
  terminal: boolean;
  phase: Phase | undefined;
}

function checkEvent(value: unknown, path: string, issues: Issues): EventFacts | undefined {
  if (!isObject(value)) {
    issues.add(path, 'expected_object');
    return undefined;
  }
  checkVersion(value.otep_version, field(path, 'otep_version'), issues);
  const instant = checkOccurredAt(value.occurred_at, field(path, 'occurred_at'), issues);
  if (value.recorded_at !== undefined && parseOffsetDateTime(value.recorded_at) === undefined) {
    issues.add(field(path, 'recorded_at'), 'bad_recorded_at', { value: shown(value.recorded_at) });
  }
  const status = checkStatusCode(value.status_code, field(path, 'status_code'), issues);
  const phase = checkPhase(value.phase, status, field(path, 'phase'), issues);
  checkSource(value.source, field(path, 'source'), issues);
  checkLocation(value, path, issues);
  checkIncidentReason(value, path, issues);
  checkPod(value, path, issues);
  checkTexts(value, TEXT_FIELDS.event, path, issues);
  if (value.subject !== undefined) checkSubject(value.subject, field(path, 'subject'), issues);
  return {
    path,
    instant,
    code: status?.code,
    experimental: status !== undefined && !status.entry,
    terminal: status?.entry?.terminal ?? false,
    phase,
  };
}

/**
 * How far along a journey each progress phase is. inbound and transit share a rank: a parcel
 * alternates between them at every hub, which is not going backwards.
 */
const PROGRESS_RANK = {
  pre_shipment: 0,
  pickup: 1,
  inbound: 2,
  transit: 2,
  out_for_delivery: 3,
  delivered: 4,
} as const satisfies Record<Exclude<Phase, 'exception' | 'return'>, number>;

/** How far along a journey a phase is; undefined for exceptions and returns, which are no progress. */
export function progressRank(phase: Phase): number | undefined {
  return phase === 'exception' || phase === 'return' ? undefined : PROGRESS_RANK[phase];
}

/** Warnings only: out-of-order arrival is normal, so ordering never makes a timeline non-conformant. */
function checkSequence(facts: readonly EventFacts[], issues: Issues): void {
  const dated = facts.filter(
    (event): event is EventFacts & { instant: number } => event.instant !== undefined,
  );
  dated.forEach((event, position) => {
    const previous = dated[position - 1];
    if (previous && event.instant < previous.instant)
      issues.add(field(event.path, 'occurred_at'), 'events_not_sorted');
  });

  // Stable sort: events at the same instant keep the order they were sent in.
  const chronological = [...dated].sort((a, b) => a.instant - b.instant);
  let terminal: (typeof dated)[number] | undefined;
  // The furthest progress phase reached since the last exception or return.
  let furthest: keyof typeof PROGRESS_RANK | undefined;
  for (const event of chronological) {
    if (terminal && event.instant > terminal.instant) {
      issues.add(event.path, 'event_after_terminal', { terminal: terminal.code! });
      continue;
    }
    if (event.phase === 'exception' || event.phase === 'return') furthest = undefined;
    else if (event.phase && furthest && PROGRESS_RANK[event.phase] < PROGRESS_RANK[furthest]) {
      issues.add(event.path, 'phase_backwards', { from: furthest, to: event.phase });
    } else if (event.phase) furthest = event.phase;
    if (event.terminal) terminal ??= event;
  }
}

const isStandardProjection = (name: string) => STANDARD_PROJECTIONS.some((standard) => standard === name);

/** The declared projections (envelope `projections`), warning on names that are not standards. */
function checkProjections(value: unknown, issues: Issues): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string')) {
    issues.add('projections', 'expected_string_array');
    return [];
  }
  value.forEach((name, index) => {
    if (!isStandardProjection(name)) {
      issues.add(element('projections', index), 'not_a_standard_projection', {
        name,
        standards: list(STANDARD_PROJECTIONS),
      });
    }
  });
  return value;
}

export interface ValidateOptions {
  /** Projections the caller asked for (for example `?format=epcis`): they count toward level 2 like declared ones. */
  requestedProjections?: readonly string[];
}

/** Validates a whole timeline: envelope, every event, and the ordering of events. */
export function validateTimeline(
  input: unknown,
  lang: Language,
  options: ValidateOptions = {},
): ValidationReport {
  const issues = new Issues(lang);
  if (!isObject(input)) {
    issues.add('', 'timeline_not_object');
    return { conformant: false, level: 0, errors: issues.errors, warnings: issues.warnings };
  }
  checkVersion(input.otep_version, 'otep_version', issues);
  checkProfile(input.profile, issues);
  checkSubjects(input, issues);
  if (input.current_status !== undefined && typeof input.current_status !== 'string') {
    issues.add('current_status', 'expected_string');
  }
  if (input.delivered !== undefined && typeof input.delivered !== 'boolean') {
    issues.add('delivered', 'expected_boolean');
  }
  const declared = checkProjections(input.projections, issues);

  let facts: EventFacts[] = [];
  if (Array.isArray(input.events)) {
    facts = input.events.flatMap((event, index) => checkEvent(event, element('events', index), issues) ?? []);
    checkSequence(facts, issues);
  } else {
    issues.add('events', 'events_not_array');
  }

  const conformant = issues.errors.length === 0;
  const projected = [...declared, ...(options.requestedProjections ?? [])].some(isStandardProjection);
  const onlyProfileCodes = facts.length > 0 && facts.every((event) => !event.experimental);
  const level: ConformanceLevel = !conformant ? 0 : onlyProfileCodes && projected ? 2 : 1;
  return { conformant, level, errors: issues.errors, warnings: issues.warnings };
}
