import { z } from 'zod';
import {
  businessOf,
  defineOperation,
  type Operation,
  type OperationContext,
  providerOf,
  Representation,
  STAFF,
} from '../../platform/catalog/operation.ts';
import { AppError } from '../../platform/errors.ts';
import { fieldMessage } from '../../platform/i18n/field-messages.ts';
import { composedOfShared } from '../../platform/json.ts';
import { idParam } from '../../platform/schemas.ts';
import { OTEP_VERSION } from './codebook.ts';
import { eventsFromEpcis } from './projections/epcis-reader.ts';
import { FORMAT_MEDIA_TYPES, FORMAT_NAMES, FORMATS, formatOfMediaType } from './projections/registry.ts';
import { PublicDocuments } from './public-documents.ts';
import {
  eventPageEnvelope,
  eventPageOf,
  eventPageParams,
  PUBLIC_TIMELINE_CACHE,
  trackingNumberParam,
} from './public-tracking.ts';
import { publicView } from './public-view.ts';
import {
  joinPath,
  MAX_BATCH_NUMBERS,
  MAX_INGEST_EVENTS,
  type TrackingService,
  trackingTag,
} from './service.ts';
import type { OtepTimeline } from './timeline.ts';
import { timelineSchema } from './timeline-schema.ts';
import { validateTimeline } from './validator.ts';

const formatParam = z
  .string()
  .optional()
  .describe(
    `Output format: ${FORMAT_NAMES.join(', ')} (default otep). Over REST an Accept media type may pick it ` +
      'instead (docs/otep-formats.md lists them), and the answer is then the bare document',
  );

/** `{ result, format, data }`: one wrapper for every format, so clients branch on `format` only. */
const projected = z.object({
  result: z.literal(true),
  format: z.string(),
  data: z.unknown().describe("The format's document"),
});

/** One timeline's answer: the format's document of one page of events, and where that page sits. */
const projectedPage = projected.extend(eventPageEnvelope);

/** What an ingest answers: the events stored, and those it already had. */
const ingested = z.object({ result: z.literal(true), accepted: z.int(), duplicates: z.int() });

/**
 * A timeline (or many) in the format the caller asked for, as the public may see it. `build`
 * gets the projection and the name of the format chosen (by `format`, by Accept, or otep).
 */
function render(
  ctx: OperationContext,
  baseUrl: string,
  format: string | undefined,
  build: (project: (t: OtepTimeline) => unknown, format: string) => unknown,
) {
  const chosen = chosenFormat(ctx, format);
  const project = (timeline: OtepTimeline) =>
    FORMATS[chosen.name]!.project(publicView(timeline), { baseUrl });
  return answerIn(chosen, build(project, chosen.name));
}

/** The format the caller asked for: by name, else by an Accept media type (the bare document), else otep. */
function chosenFormat(ctx: OperationContext, format: string | undefined): { name: string; bare: boolean } {
  if (format !== undefined) {
    if (!Object.hasOwn(FORMATS, format)) {
      throw new AppError('UNKNOWN_FORMAT', {
        params: { format, formats: FORMAT_NAMES.join(', ') },
        details: { formats: FORMAT_NAMES },
      });
    }
    return { name: format, bare: false };
  }
  const accepted = formatOfMediaType(ctx.representation);
  return accepted ? { name: accepted, bare: true } : { name: 'otep', bare: false };
}

/** `{ result, format, data }`, or the bare document in the format's media type. */
function answerIn(chosen: { name: string; bare: boolean }, data: unknown) {
  if (chosen.bare) return new Representation(FORMATS[chosen.name]!.mediaType, data);
  return { result: true as const, format: chosen.name, data };
}

/** The timeline's version, and the representation an Accept header picks when no format is named. */
async function versionOf(
  ctx: OperationContext,
  tracking: TrackingService,
  input: { tracking_number: string; format?: string },
) {
  const version = await tracking.timelineVersion(ctx.db, input.tracking_number);
  return version === null ? null : representationVersion(ctx, input.format, version);
}

function representationVersion(ctx: OperationContext, format: string | undefined, version: string): string {
  return format === undefined ? `${version}:${formatOfMediaType(ctx.representation) ?? 'wrapped'}` : version;
}

/** One page of one timeline, rendered, with its paging; the version goes to doors that cache. */
async function renderPage(
  ctx: OperationContext,
  tracking: TrackingService,
  input: { tracking_number: string; format?: string; page: number; per_page: number },
  pick: (document: unknown, format: string) => unknown,
) {
  const read = await tracking.timeline(ctx.db, input.tracking_number, {
    page: input.page,
    perPage: input.per_page,
  });
  ctx.answer.version = representationVersion(ctx, input.format, read.version);
  const answer = render(ctx, tracking.baseUrl, input.format, (project, format) =>
    pick(project(read.timeline), format),
  );
  // A bare document (asked for by Accept) is the format's own: its paging is the caller's query.
  return answer instanceof Representation ? answer : { ...answer, ...eventPageOf(read, input) };
}

const auditEntry = z.object({
  at: z.string(),
  kind: z.enum(['order_change', 'tracking_event']),
  source: z
    .string()
    .describe('The door of a change (rest, graphql, mcp, page, ...), the source type of an event'),
  actor: z.object({ id: z.int(), name: z.string() }).nullable(),
  action: z.string(),
  tracking_number: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});

export function trackingOperations(tracking: TrackingService): Operation[] {
  const documents = new PublicDocuments(tracking);
  /** Public answers of one number are kept until an event of it is stored (platform/cache). */
  const publicCache = { tags: (input: { tracking_number: string }) => [trackingTag(input.tracking_number)] };
  return [
    defineOperation({
      name: 'get_order_audit_timeline',
      summary:
        "One order's audit, oldest first: its changes by door and actor, and its packages' tracking events",
      description:
        'Every change of the order through any door, with who made it, and every tracking event of its packages with its source, merged in time order. Use it to explain how an order got where it is.',
      tag: 'Tracking',
      kind: 'query',
      risk: 'low',
      tool: {
        developer: 'get_order_audit_timeline',
        guide:
          'The chronological audit of one order across doors and sources: every change (which door, who, what changed) and every tracking event of its packages (which source, where). Use it to explain how an order got where it is.',
        idempotent: true,
      },
      access: { kinds: STAFF, scopes: ['orders:read'] },
      errors: ['ORDER_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/client/orders/:order_id/audit-timeline' },
      graphql: 'orderAuditTimeline',
      input: z.object({ order_id: idParam }),
      output: z.object({
        result: z.literal(true),
        order: z.object({ id: z.int(), order_ref: z.string(), status: z.string() }),
        entries: z.array(auditEntry),
      }),
      handler: (ctx, input) => tracking.orderAuditTimeline(ctx, input.order_id),
    }),
    defineOperation({
      name: 'get_operation_events',
      summary: 'The audit trail of orders: every change with actor, time, source and before/after values',
      description:
        'Name orders by ids or references: every change made to them, through any door, with the action, the actor and the fields before and after. Use it to explain how an order got to its state.',
      tag: 'Tracking',
      kind: 'query',
      risk: 'low',
      tool: {
        developer: 'get_operation_events',
        user: 'get_operation_events',
        guide:
          'The audit trail of orders (who changed what, when, through which door), by order ids or references. Use it to explain how an order got to its state.',
        idempotent: true,
      },
      access: { kinds: STAFF, scopes: ['orders:read'] },
      rest: { method: 'POST', path: '/v1/tracking/operationevents' },
      graphql: 'trackingOperationevents',
      input: z
        .object({
          order_ids: z.array(z.int().positive()).max(100).optional(),
          order_refs: z.array(z.string().min(1).max(64)).max(100).optional(),
        })
        .refine((by) => by.order_ids?.length || by.order_refs?.length, {
          ...fieldMessage('at_least_one_of', { fields: 'order_ids, order_refs' }),
          path: ['order_ids'],
        }),
      output: z.object({
        result: z.literal(true),
        events: z.array(
          z.object({
            order_id: z.int(),
            order_ref: z.string(),
            at: z.string(),
            actor: z.object({ id: z.int(), name: z.string() }).nullable(),
            source: z.string(),
            action: z.string(),
            changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })),
          }),
        ),
      }),
      handler: (ctx, input) => tracking.operationEvents(ctx, input),
    }),
    defineOperation({
      name: 'get_tracking_detail',
      summary:
        "One tracking number's OTEP timeline in full, for its business and allies it shares tracking with",
      description:
        "The business's own numbers, and numbers of a business granting the caller's track_packages in an alliance " +
        '(the token must grant alliance:read too), come with every event detail; any other number with the public ' +
        'view only. `view` says which (docs/alliances.md).',
      tag: 'Tracking',
      kind: 'query',
      risk: 'low',
      access: { kinds: STAFF, scopes: ['orders:read'] },
      errors: ['TRACKING_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/client/trackings/:tracking_number' },
      graphql: 'trackingDetail',
      input: z.object({ tracking_number: trackingNumberParam, ...eventPageParams }),
      output: z.object({
        result: z.literal(true),
        view: z
          .enum(['own', 'allied', 'public'])
          .describe(
            "own: the caller's business's number; allied: shared by an ally; public: what anyone sees",
          ),
        timeline: timelineSchema.describe('The OTEP timeline: one page of its events'),
        ...eventPageEnvelope,
      }),
      handler: async (ctx, input) => {
        const { read, view, timeline } = await tracking.detail(ctx, input.tracking_number, {
          page: input.page,
          perPage: input.per_page,
        });
        return { result: true as const, view, timeline, ...eventPageOf(read, input) };
      },
    }),
    defineOperation({
      name: 'get_otep_tracking',
      summary: 'The OTEP timeline of one tracking number, in any of the output formats',
      description:
        'Public. `format` (or an Accept media type, which answers the bare document) picks the projection. ' +
        'Personal data is reduced to what a tracking page shows (see docs/otep.md).',
      tag: 'OTEP',
      kind: 'query',
      reads: 'replica',
      risk: 'low',
      tool: {
        developer: 'get_otep_tracking',
        user: 'otep_tracking',
        guide:
          "A parcel's OTEP event timeline in a format (otep by default; epcis, onerecord, uncefact, otlp, storefront formats), for systems that need a standard shape; for a plain status use track_package.",
        idempotent: true,
      },
      access: { public: true },
      errors: ['TRACKING_NOT_FOUND', 'UNKNOWN_FORMAT'],
      representations: FORMAT_MEDIA_TYPES,
      rest: {
        method: 'GET',
        path: '/v1/otep/trackings/:tracking_number',
        etag: true,
        cache: PUBLIC_TIMELINE_CACHE,
      },
      graphql: 'otepTracking',
      input: z.object({ tracking_number: trackingNumberParam, format: formatParam, ...eventPageParams }),
      output: projectedPage,
      version: (ctx, input) => versionOf(ctx, tracking, input),
      publicCache,
      handler: (ctx, input) => renderPage(ctx, tracking, input, (document) => document),
    }),
    defineOperation({
      name: 'get_otep_tracking_events',
      summary: 'The events of one tracking number only, in any of the output formats',
      description:
        "Paged, in the format the format parameter or Accept names; use it when the shipment's summary is not needed. Public: anyone holding the number reads it.",
      tag: 'OTEP',
      kind: 'query',
      reads: 'replica',
      risk: 'low',
      access: { public: true },
      errors: ['TRACKING_NOT_FOUND', 'UNKNOWN_FORMAT'],
      representations: FORMAT_MEDIA_TYPES,
      rest: {
        method: 'GET',
        path: '/v1/otep/trackings/:tracking_number/events',
        etag: true,
        cache: PUBLIC_TIMELINE_CACHE,
      },
      input: z.object({ tracking_number: trackingNumberParam, format: formatParam, ...eventPageParams }),
      output: projectedPage,
      version: (ctx, input) => versionOf(ctx, tracking, input),
      publicCache,
      handler: (ctx, input) =>
        // The native format has an events list of its own; the others are event lists already.
        renderPage(ctx, tracking, input, (document, format) =>
          format === 'otep' ? (document as OtepTimeline).events : document,
        ),
    }),
    defineOperation({
      name: 'get_otep_trackings_batch',
      summary: `Timelines of up to ${MAX_BATCH_NUMBERS} tracking numbers in one call`,
      description:
        'Public. `data.trackings` holds the found ones in the order asked; `data.not_found` the others.',
      tag: 'OTEP',
      kind: 'query',
      reads: 'replica',
      risk: 'low',
      access: { public: true },
      errors: ['UNKNOWN_FORMAT'],
      representations: FORMAT_MEDIA_TYPES,
      rest: { method: 'POST', path: '/v1/otep/trackings/batch' },
      graphql: 'otepTrackingsBatch',
      input: z.object({
        tracking_numbers: z.array(trackingNumberParam).min(1).max(MAX_BATCH_NUMBERS),
        format: formatParam,
        ...eventPageParams,
      }),
      output: projected,
      handler: async (ctx, input) => {
        const chosen = chosenFormat(ctx, input.format);
        const numbers = [...new Set(input.tracking_numbers)];
        const found = await documents.of(ctx.db, numbers, chosen.name, {
          page: input.page,
          perPage: input.per_page,
        });
        // Made of the numbers' shared documents: written to JSON around them, not through them.
        const answer = answerIn(
          chosen,
          composedOfShared({
            trackings: numbers.flatMap((number) => {
              const document = found.get(number);
              return document
                ? [{ tracking_number: number, total_events: document.totalEvents, data: document.data }]
                : [];
            }),
            not_found: numbers.filter((number) => !found.has(number)),
          }),
        );
        return answer instanceof Representation ? answer : composedOfShared(answer);
      },
    }),
    defineOperation({
      name: 'otep_ingest',
      summary: 'Push tracking events as native OTEP timelines (tracking providers)',
      description:
        'Needs a provider key in X-OTEP-Provider-Key. Body: one timeline, or `{ "timelines": [...] }`; an event ' +
        "may name its own `subject`, which wins over the envelope's (docs/tracking.md); at most " +
        `${MAX_INGEST_EVENTS} events. All or nothing: any invalid event, or a tracking number that is not the provider business's, ` +
        'refuses the whole request (422 OTEP_INVALID listing every path). Events already stored are counted as duplicates.',
      tag: 'OTEP',
      kind: 'mutation',
      expensive: true,
      risk: 'medium',
      access: { provider: true },
      errors: ['OTEP_INVALID', 'OTEP_TOO_MANY_EVENTS'],
      rest: { method: 'POST', path: '/v1/otep/ingest' },
      input: z.looseObject({ timelines: z.array(z.unknown()).max(MAX_INGEST_EVENTS).optional() }),
      output: ingested,
      handler: (ctx, input) => {
        const { timelines, ...single } = input;
        return timelines
          ? tracking.ingest(ctx, providerOf(ctx), timelines, (i, path) => joinPath(`timelines[${i}]`, path))
          : tracking.ingest(ctx, providerOf(ctx), [single], (_, path) => path);
      },
    }),
    defineOperation({
      name: 'otep_ingest_epcis',
      summary: 'Push tracking events as a GS1 EPCIS 2.0 document (tracking providers)',
      description:
        'ObjectEvents are mapped back to OTEP codes (the otep:status_code extension when present, else bizStep and ' +
        'disposition) and stored like a native push: all or nothing, duplicates counted.',
      tag: 'OTEP',
      kind: 'mutation',
      expensive: true,
      risk: 'medium',
      access: { provider: true },
      errors: ['OTEP_INVALID', 'OTEP_TOO_MANY_EVENTS'],
      // JSON-LD is the media type the service serves EPCIS in; plain JSON is taken too.
      rest: {
        method: 'POST',
        path: '/v1/otep/ingest/epcis',
        body: { field: 'document', jsonTypes: ['application/ld+json'] },
      },
      input: z.object({
        document: z
          .looseObject({})
          .describe('The EPCISDocument (or EPCISQueryDocument): the whole request body'),
      }),
      output: ingested,
      handler: async (ctx, input) => {
        const read = eventsFromEpcis(input.document, ctx.lang);
        if (read.errors.length > 0) {
          throw new AppError('OTEP_INVALID', {
            details: { errors: read.errors.map((e) => ({ ...e, code: 'epcis_unreadable' })) },
          });
        }
        const grouped = timelinesFromEpcis(read.events);
        return tracking.ingest(ctx, providerOf(ctx), grouped.timelines, (i, path) => {
          // Point at the ObjectEvent the problem came from, not at our grouping of them.
          const event = /^events\[(\d+)\]/.exec(path);
          if (!event) return 'epcisBody.eventList';
          return path.replace(event[0], `epcisBody.eventList[${grouped.origins[i]![Number(event[1])]}]`);
        });
      },
    }),
    defineOperation({
      name: 'otep_validate',
      summary: 'Check a timeline against OTEP: errors and warnings with paths, conformance level',
      description:
        'Public. Always 200 for well-formed JSON, an object or not (a value that is not an object is reported ' +
        'as timeline_not_object); messages follow Accept-Language.',
      tag: 'OTEP',
      kind: 'query',
      risk: 'low',
      tool: {
        developer: 'validate_otep_payload',
        guide:
          'Check an OTEP timeline payload against the protocol before sending it: answers whether it is valid and every issue with its JSON path and a fix. Use it while building an integration.',
        idempotent: true,
      },
      access: { public: true },
      rest: { method: 'POST', path: '/v1/otep/validate', body: { field: 'timeline' } },
      graphql: 'otepValidate',
      input: z.object({
        timeline: z
          .unknown()
          .nonoptional()
          .describe('The OTEP timeline to check, any JSON value (REST: the whole request body)'),
      }),
      output: z.object({
        result: z.literal(true),
        conformant: z.boolean(),
        level: z
          .int()
          .min(0)
          .max(2)
          .describe(
            'Conformance level (docs/otep.md): 0 with errors, 1 conformant, 2 also projected to a standard',
          ),
        errors: z.array(z.object({ path: z.string(), code: z.string(), message: z.string() })),
        warnings: z.array(z.object({ path: z.string(), code: z.string(), message: z.string() })),
      }),
      handler: async (ctx, input) => ({
        result: true as const,
        ...validateTimeline(input.timeline, ctx.lang),
      }),
    }),
    defineOperation({
      name: 'create_tracking_provider',
      summary: 'Register a tracking provider and get its key (shown once)',
      description:
        "The provider pushes events to this business's tracking numbers with the key in X-OTEP-Provider-Key.",
      tag: 'OTEP',
      kind: 'mutation',
      risk: 'high',
      confirm: true,
      access: { kinds: ['client_admin'], scopes: ['orders:write'] },
      rest: { method: 'POST', path: '/v1/client/otep/providers' },
      graphql: 'createTrackingProvider',
      input: z.object({ name: z.string().trim().min(1).max(200) }),
      output: z.object({
        result: z.literal(true),
        provider: z.object({ id: z.int(), name: z.string(), key: z.string() }),
      }),
      handler: async (ctx, input) => ({
        result: true as const,
        provider: await tracking.createProvider(ctx.db, businessOf(ctx), input.name),
      }),
    }),
    defineOperation({
      name: 'get_tracking_providers',
      summary: "The business's tracking providers (never their keys)",
      description:
        'The providers registered to push events for the business, with when each was made and revoked. Keys are never shown again after create_tracking_provider.',
      tag: 'OTEP',
      kind: 'query',
      risk: 'low',
      access: { kinds: STAFF, scopes: ['orders:read'] },
      rest: { method: 'GET', path: '/v1/client/otep/providers' },
      graphql: 'trackingProviders',
      input: z.object({}),
      output: z.object({
        result: z.literal(true),
        providers: z.array(
          z.object({
            id: z.int(),
            name: z.string(),
            created_at: z.string(),
            revoked_at: z.string().nullable(),
          }),
        ),
      }),
      handler: async (ctx) => ({
        result: true as const,
        providers: await tracking.providers(ctx.db, businessOf(ctx)),
      }),
    }),
    defineOperation({
      name: 'revoke_tracking_provider',
      summary: "Revoke a tracking provider's key",
      description:
        "The provider's key stops working at once; events it pushed stay in their timelines. High risk: an agent token must confirm it.",
      tag: 'OTEP',
      kind: 'mutation',
      risk: 'high',
      confirm: true,
      access: { kinds: ['client_admin'], scopes: ['orders:write'] },
      errors: ['TRACKING_PROVIDER_NOT_FOUND'],
      rest: { method: 'POST', path: '/v1/client/otep/providers/:provider_id/revoke' },
      graphql: 'revokeTrackingProvider',
      input: z.object({ provider_id: idParam }),
      output: z.object({ result: z.literal(true) }),
      handler: async (ctx, input) => {
        await tracking.revokeProvider(ctx.db, businessOf(ctx), input.provider_id);
        return { result: true as const };
      },
    }),
  ];
}

/** EPCIS events grouped into one pushed timeline per subject, with each event's index in the document. */
function timelinesFromEpcis(events: ReturnType<typeof eventsFromEpcis>['events']) {
  const bySubject = new Map<string, { subject: object; events: unknown[]; origins: number[] }>();
  for (const [index, { subject, event }] of events.entries()) {
    const key = JSON.stringify(subject);
    const group = bySubject.get(key) ?? { subject, events: [], origins: [] };
    group.events.push(event);
    group.origins.push(index);
    bySubject.set(key, group);
  }
  const groups = [...bySubject.values()];
  return {
    timelines: groups.map(({ subject, events }) => ({
      otep_version: OTEP_VERSION,
      profile: 'parcel',
      subject,
      events,
    })),
    origins: groups.map((group) => group.origins),
  };
}
