import type { Language } from '../../platform/i18n/index.ts';
import {
  CODE_ALIASES,
  CODEBOOK,
  DEFAULT_PROFILE,
  DEFAULT_SOURCE_TYPE,
  INCIDENT_REASONS,
  type IncidentReason,
  OTEP_VERSION,
  PHASES,
  type Phase,
  PROFILES,
  SOURCE_TYPES,
  type SourceType,
  statusUri,
} from './codebook.ts';
import { type Block, type GuideDocument, renderHtml, renderMarkdown } from './guide-render.ts';
import { FORMAT_NAMES, FORMATS } from './projections/registry.ts';
import type { OtepSubject } from './timeline.ts';
import { guideUrls } from './urls.ts';
import { issueCatalog, STANDARD_PROJECTIONS, SUBJECT_IDENTIFIERS, validateTimeline } from './validator.ts';
import { issueMessage } from './validator-messages.ts';

/**
 * The OTEP guide the service publishes. The content is written once, as a small structured
 * document, and rendered (guide-render.ts) to Markdown and to a self-contained HTML page; tables come from the
 * codebook and the validator, so the guide cannot disagree with them.
 */

const heading = (text: string, level: 2 | 3 = 2): Block => ({ kind: 'heading', level, text });
const paragraph = (text: string): Block => ({ kind: 'paragraph', text });
const bullets = (items: string[], ordered = false): Block => ({ kind: 'list', items, ordered });
const table = (columns: string[], rows: string[][]): Block => ({ kind: 'table', columns, rows });
const code = (text: string): string => `\`${text}\``;
const yes = (flag: boolean) => (flag ? 'yes' : '');

// ---------------------------------------------------------------------------------------------
// Content
// ---------------------------------------------------------------------------------------------

const PHASE_MEANINGS: Record<Phase, string> = {
  pre_shipment: 'The shipment is announced or booked, not yet handed over.',
  pickup: 'A driver is collecting it, or has collected it.',
  inbound: 'It arrived at, or was received by, a facility.',
  transit: 'It is moving between facilities.',
  out_for_delivery: 'It is on the vehicle for the last mile.',
  delivered: 'The recipient has it.',
  exception: 'Something interrupted the journey: a failed or rescheduled attempt, a removal, a cancellation.',
  return: 'It is going back to the sender, or the recipient refused it.',
};

const SOURCE_TYPE_MEANINGS: Record<SourceType, string> = {
  self_delivery: "The business's own drivers and depots, through this service.",
  third_party_delivery: 'A delivery partner working on routes planned in this service.',
  carrier: 'An external carrier that reports a history of events.',
  provider_push: 'A tracking provider that pushed the event to the ingest endpoint.',
  synthesized: 'Made by this service from a change of a current status, for sources without a history.',
};

const INCIDENT_REASON_MEANINGS: Record<IncidentReason, string> = {
  recipient_absent: 'Nobody was there to receive it.',
  address_not_found: 'The address could not be found or is incomplete.',
  refused: 'The recipient refused it.',
  damaged: 'The parcel is damaged.',
  weather: 'Weather prevented the attempt.',
  customs: 'Held or delayed by customs.',
  vehicle_issue: 'A vehicle breakdown or accident.',
  access_restricted: 'The place could not be entered (gate, code, restricted hours).',
  other: 'Any other reason; say which in `message`.',
};

const IDENTIFIER_MEANINGS: Record<keyof OtepSubject, string> = {
  tracking_number: "This service's tracking number.",
  order_id: "This service's order id.",
  package_id: "This service's package id.",
  external_tracking_number: "A carrier's or marketplace's own tracking number.",
  gs1_sscc: 'GS1 Serial Shipping Container Code (projected as `https://id.gs1.org/00/<sscc>`).',
  piece_id: 'A piece of a multi-piece shipment.',
};

const IDENTIFIER_TYPES = {
  text: 'non-empty string',
  positive_integer: 'integer ≥ 1',
  sscc: 'string of exactly 18 digits',
} as const;

const TERMINAL_CODES = CODEBOOK.filter((entry) => entry.terminal).map((entry) => entry.code);
const ALIASES_SENTENCE = `Still accepted on input, and stored and answered as the code they name: ${Object.entries(
  CODE_ALIASES,
)
  .map(([alias, name]) => `${code(alias)} for ${code(name)}`)
  .join(', ')}.`;

function codebookTable(): Block {
  return table(
    [
      '#',
      'code',
      'phase',
      'terminal',
      'pod',
      'EPCIS bizStep',
      'EPCIS disposition',
      'IATA',
      'Rec 24',
      'meaning',
    ],
    CODEBOOK.map((entry, index) => [
      String(index + 1),
      code(entry.code),
      code(entry.phase),
      yes(entry.terminal),
      yes(entry.pod),
      code(entry.bizStep),
      code(entry.disposition),
      entry.iata,
      String(entry.rec24),
      entry.description,
    ]),
  );
}

function codebookIntro(): Block[] {
  return [
    paragraph(
      `Profile ${code(PROFILES.join(', '))}, OTEP ${OTEP_VERSION}: ${CODEBOOK.length} status codes. ` +
        `Each is addressed as ${code('otep:<profile>:<code>')} (for example ${code(statusUri('delivered'))}); ` +
        'short and addressed forms are both accepted on input. Experimental codes start with `x-` until registered.',
    ),
    paragraph(`Terminal codes: ${TERMINAL_CODES.map(code).join(', ')}. ${ALIASES_SENTENCE}`),
    paragraph(
      '“pod” marks the codes that carry a proof of delivery or pickup. The EPCIS columns are GS1 CBV words, which the ' +
        'epcis format writes as their CBV 2.0 URIs (`https://ref.gs1.org/cbv/BizStep-receiving`); `received` is not ' +
        'a CBV disposition and is emitted in this service’s own namespace.',
    ),
  ];
}

/** A real call of the validator, so the example cannot go stale. */
function validatorExample(): Block[] {
  const timeline = {
    otep_version: OTEP_VERSION,
    profile: 'parcel',
    subject: { tracking_number: 'TMS0000123' },
    events: [
      {
        occurred_at: '2026-11-02T10:30:00',
        status_code: 'otep:parcel:delivered',
        source: { type: 'carrier' },
      },
    ],
  };
  const answer = { result: true, ...validateTimeline(timeline, 'en') };
  return [
    paragraph('For example, this body:'),
    {
      kind: 'code',
      language: 'json',
      label: 'Example timeline sent to the validator',
      text: JSON.stringify(timeline, null, 2),
    },
    paragraph('gets this answer:'),
    {
      kind: 'code',
      language: 'json',
      label: "The validator's answer to the example",
      text: JSON.stringify(answer, null, 2),
    },
  ];
}

function guideDocument(baseUrl: string): GuideDocument {
  const urls = guideUrls(baseUrl);
  const link = (url: string) => `[${url}](${url})`;
  return {
    title: `Open Tracking Event Protocol (OTEP) ${OTEP_VERSION}`,
    blocks: [
      paragraph(
        'OTEP describes a shipment’s journey as a timeline of events on four dimensions: what (the subject), ' +
          'when (time of occurrence and of recording), where (location) and why (a canonical status code and ' +
          'an optional incident reason). This service answers every tracking read in OTEP and projects it onto ' +
          'external standards on request.',
      ),

      heading('Endpoints'),
      paragraph(`Paths are relative to ${code(urls.api)}. Reads need no credentials.`),
      table(
        ['method', 'path', 'purpose'],
        [
          ['GET', code('/v1/otep/trackings/{tracking_number}'), 'The timeline of one tracking number.'],
          ['GET', code('/v1/otep/trackings/{tracking_number}/events'), 'Its events only.'],
          ['POST', code('/v1/otep/trackings/batch'), 'Many tracking numbers in one call.'],
          ['POST', code('/v1/otep/ingest'), 'Providers push a native timeline (provider credential).'],
          [
            'POST',
            code('/v1/otep/ingest/epcis'),
            'Providers push a GS1 EPCIS 2.0 document (provider credential).',
          ],
          ['POST', code('/v1/otep/validate'), 'The conformance validator (public).'],
        ],
      ),

      heading('Timeline envelope'),
      table(
        ['field', 'type', 'required', 'notes'],
        [
          [
            code('otep_version'),
            'string',
            'no',
            `Protocol version, ${code(OTEP_VERSION)} today; ${code(OTEP_VERSION)} when omitted.`,
          ],
          [
            code('profile'),
            'string',
            'no',
            `Domain profile: ${PROFILES.map(code).join(', ')}; ${code(DEFAULT_PROFILE)} when omitted.`,
          ],
          [
            code('subject'),
            'object',
            'yes, unless every event has its own',
            'What is tracked: at least one identifier (below). An event without a subject of its own is about this one.',
          ],
          [
            code('current_status'),
            'string',
            'no',
            'Code of the latest event by `occurred_at`, unless it came after a terminal event (then the latest ' +
              'terminal code); absent when there are no events.',
          ],
          [code('delivered'), 'boolean', 'no', 'True when `current_status` is `delivered`.'],
          [
            code('projections'),
            'array of strings',
            'no',
            'External projections the timeline declares, for example `["epcis"]` (see conformance levels).',
          ],
          [
            code('events'),
            'array',
            'yes',
            'Ascending by `occurred_at` (ties: `recorded_at`, then `event_id`); may be empty.',
          ],
        ],
      ),
      paragraph(
        'Read answers wrap the document: `{ "result": true, "format": "otep", "data": <timeline> }`. ' +
          'Fields not listed here are ignored, so later minor versions can add fields.',
      ),

      heading('Event'),
      table(
        ['field', 'required', 'notes'],
        [
          [
            code('occurred_at'),
            'yes',
            'When it happened: RFC 3339 date-time with seconds and an explicit offset (`Z` or `±hh:mm`), ' +
              'for example `2026-11-02T10:30:00+01:00`. Without an offset it is an error.',
          ],
          [
            code('status_code'),
            'yes',
            'A codebook code, short (`delivered`) or addressed (`otep:parcel:delivered`), or an experimental `x-…` code.',
          ],
          [
            code('subject'),
            'no',
            'What this event is about, when not the envelope’s subject: it wins over it, whole. On ingest, its ' +
              '`tracking_number` is the timeline the event is stored in.',
          ],
          [
            code('source'),
            'no',
            '`{ type, name?, reference? }`; `type` is one of the source types below. When omitted: ' +
              `${code(`{ "type": "${DEFAULT_SOURCE_TYPE}" }`)}, named after the provider on ingest.`,
          ],
          [
            code('otep_version'),
            'no',
            'Inherited from the envelope when omitted; a different major version is an error.',
          ],
          [
            code('recorded_at'),
            'no',
            'When the service recorded it (set on ingest); RFC 3339 with an offset.',
          ],
          [
            code('phase'),
            'no',
            'Derived from `status_code`. When sent (`transit` or `otep:phase:transit`) it must be the codebook’s phase.',
          ],
          [code('status_uri'), 'no', 'The addressed form of the code, added on output.'],
          [
            code('after_terminal'),
            'no',
            'Added on output, `true` only: the event comes after a terminal one and leaves the current status as it was.',
          ],
          [
            code('location'),
            'no',
            '`name`, `address`, `city`, `region`, `postal_code`, `country` (ISO 3166-1 alpha-2), ' +
              '`lat` (−90 to 90), `lng` (−180 to 180), `gln` (13 digits).',
          ],
          [
            code('incident_reason'),
            'no',
            '`{ code, message? }`; `code` is one of the incident reasons below.',
          ],
          [
            code('pod'),
            'no',
            'Proof of delivery or pickup: `recipient`, `signature_url`, `photo_urls` (array of strings), `note`.',
          ],
          [code('description'), 'no', 'Free text from the source.'],
          [
            code('event_id'),
            'no',
            'A stable id. Ingest deduplicates on it, and without it on subject + `occurred_at` + `status_code` + `source.type`.',
          ],
        ],
      ),

      heading('Subject identifiers'),
      paragraph('A subject carries at least one of these identifiers.'),
      table(
        ['identifier', 'type', 'meaning'],
        Object.entries(SUBJECT_IDENTIFIERS).map(([name, kind]) => [
          code(name),
          IDENTIFIER_TYPES[kind],
          IDENTIFIER_MEANINGS[name as keyof OtepSubject],
        ]),
      ),

      heading('Identifiers and versions'),
      bullets([
        'A status code is addressed as `otep:<profile>:<code>`, a phase as `otep:phase:<name>`. Both short and ' +
          'addressed forms are accepted on input; output uses the short form in `status_code` and adds `status_uri`.',
        `Semantic versioning: ${code(OTEP_VERSION)} today. Minor versions add codes, profiles and fields; ` +
          'the meaning of a published identifier never changes.',
        'The envelope must carry `otep_version`; an event may omit it and inherit it. Any minor version of the ' +
          'same major is read; a different major is an error.',
      ]),

      heading('Codebook'),
      ...codebookIntro(),
      codebookTable(),
      paragraph(`The same table as JSON: ${link(urls.codebookJson)}.`),

      heading('Phases'),
      paragraph(
        'A journey moves forward through the first six phases; `exception` and `return` may interrupt it.',
      ),
      table(
        ['phase', 'addressed', 'meaning'],
        PHASES.map((phase) => [code(phase), code(`otep:phase:${phase}`), PHASE_MEANINGS[phase]]),
      ),

      heading('Terminal codes'),
      paragraph(`${TERMINAL_CODES.map(code).join(', ')} end a journey. ${ALIASES_SENTENCE}`),

      heading('Source types'),
      table(
        ['source.type', 'meaning'],
        SOURCE_TYPES.map((type) => [code(type), SOURCE_TYPE_MEANINGS[type]]),
      ),

      heading('Incident reasons'),
      table(
        ['incident_reason.code', 'meaning'],
        INCIDENT_REASONS.map((reason) => [code(reason), INCIDENT_REASON_MEANINGS[reason]]),
      ),

      heading('Ordering and transitions'),
      bullets([
        'Events are ordered by `occurred_at`. Out-of-order arrival is normal and never rejected; ' +
          'the validator only warns when a submitted list is not sorted.',
        'The current status is the latest event’s code, but a terminal state stays terminal: a non-terminal ' +
          'event after a terminal one is stored and answered with `after_terminal: true`, and does not change ' +
          'the current status; a later terminal event does. The validator warns about such an event.',
        'Phases move forward: `pre_shipment` → `pickup` → `inbound` ⇄ `transit` → `out_for_delivery` → ' +
          '`delivered` (`inbound` and `transit` alternate at every hub). Going back to an earlier phase is a ' +
          'warning unless an `exception` or `return` event comes in between.',
      ]),

      heading('Synthesized events'),
      paragraph(
        'Some sources report only a current status, with no history. Every observed change of that status ' +
          'becomes one event with `source.type` `synthesized` and `occurred_at` set to the time the change was ' +
          'observed; an unchanged status adds nothing.',
      ),

      heading('Validator'),
      paragraph(
        `${code('POST /api/v1/otep/validate')} takes a timeline and answers 200 for any JSON body (400 only for ` +
          'unparsable JSON) with `conformant`, `level`, `errors` and `warnings`. Each issue has a `path` ' +
          '(`events[0].occurred_at`, `subject`; the empty path is the whole body), a stable `code` and a ' +
          '`message` in the language of Accept-Language (en, zh-Hans, zh-Hant, fr, de, es). ' +
          '`conformant` is true exactly when `errors` is empty.',
      ),
      ...validatorExample(),
      heading('Conformance levels', 3),
      bullets([
        'Level 0: not conformant (at least one error).',
        'Level 1: conformant: a valid envelope and subject, codebook or experimental codes, phases that agree ' +
          'with their codes. Ordering warnings do not lower the level.',
        `Level 2: level 1, at least one event, only codebook codes (no \`x-\` codes), and at least one ` +
          `external-standard projection declared in \`projections\` or requested: ` +
          `${STANDARD_PROJECTIONS.map(code).join(', ')}.`,
      ]),
      heading('Issue codes', 3),
      table(
        ['code', 'severity', 'message'],
        issueCatalog().map(({ code: issue, severity }) => [code(issue), severity, issueMessage(issue, 'en')]),
      ),
      paragraph(`The JSON Schema (draft 2020-12) of a timeline the validator accepts: ${link(urls.schema)}.`),

      heading('Ingest'),
      paragraph(
        'Tracking providers push events with their provider credential, as a native timeline or as a GS1 EPCIS 2.0 ' +
          'document. Each event is checked with the validator’s rules, normalized to the codebook and added to the ' +
          `timeline of its shipment. See ${code('/api/v1/otep/ingest')}.`,
      ),

      heading('Output formats'),
      paragraph(
        'Choose a format with `?format=<name>` or an Accept profile; every read has the same wrapper ' +
          '`{ "result": true, "format": "<name>", "data": <document> }`. Unknown names are a 400 listing the known ones.',
      ),
      table(
        ['format', 'data', 'media type (Accept)', 'counts for level 2'],
        FORMAT_NAMES.map((name) => [
          code(name),
          FORMATS[name]!.description,
          code(FORMATS[name]!.mediaType),
          yes(STANDARD_PROJECTIONS.some((standard) => standard === name)),
        ]),
      ),

      heading('This guide'),
      table(
        ['what', 'where'],
        [
          ['This page (HTML)', link(urls.html)],
          ['This page (Markdown)', link(urls.markdown)],
          ['Codebook', link(urls.codebook)],
          ['Codebook (JSON)', link(urls.codebookJson)],
          ['JSON Schema', link(urls.schema)],
        ],
      ),
    ],
  };
}

function codebookDocument(): GuideDocument {
  return {
    title: `OTEP codebook (${PROFILES.join(', ')}, ${OTEP_VERSION})`,
    blocks: [...codebookIntro(), codebookTable()],
  };
}

// ---------------------------------------------------------------------------------------------
// Published renderings
// ---------------------------------------------------------------------------------------------

/** The OTEP specification page as Markdown (`/api/otep-guide.md`). */
export function guideMarkdown(baseUrl: string): string {
  return renderMarkdown(guideDocument(baseUrl));
}

/** The same page as self-contained HTML (`/api/otep-guide`): inline CSS, no scripts, no external assets. */
export function guideHtml(baseUrl: string, lang: Language = 'en'): string {
  const urls = guideUrls(baseUrl);
  return renderHtml(guideDocument(baseUrl), lang, [
    ['Markdown', urls.markdown],
    ['Codebook (JSON)', urls.codebookJson],
    ['JSON Schema', urls.schema],
  ]);
}

/** The codebook table alone as Markdown (`/api/otep-guide/codebook`, text/markdown). */
export function codebookMarkdown(): string {
  return renderMarkdown(codebookDocument());
}

/** The codebook table alone as an HTML page (`/api/otep-guide/codebook`, text/html). */
export function codebookHtml(baseUrl: string, lang: Language = 'en'): string {
  const urls = guideUrls(baseUrl);
  return renderHtml(codebookDocument(), lang, [
    ['Codebook (JSON)', urls.codebookJson],
    ['OTEP guide', urls.html],
  ]);
}

/** The codebook as data (`/api/otep-guide/codebook.json`). */
export function codebookJson() {
  return {
    otep_version: OTEP_VERSION,
    profile: PROFILES[0],
    phases: [...PHASES],
    terminal_codes: TERMINAL_CODES,
    aliases: { ...CODE_ALIASES },
    source_types: [...SOURCE_TYPES],
    incident_reasons: [...INCIDENT_REASONS],
    codes: CODEBOOK.map((entry) => ({
      code: entry.code,
      uri: statusUri(entry.code),
      phase: entry.phase,
      terminal: entry.terminal,
      pod: entry.pod,
      epcis_biz_step: entry.bizStep,
      epcis_disposition: entry.disposition,
      iata_code: entry.iata,
      uncefact_rec24: entry.rec24,
      description: entry.description,
    })),
  };
}
