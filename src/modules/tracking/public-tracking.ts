import { z } from 'zod';
import { defineOperation, type Operation } from '../../platform/catalog/operation.ts';
import type { Language } from '../../platform/i18n/index.ts';
import { envelopeOf, type PageQuery, pageEnvelope } from '../../platform/pagination.ts';
import { PROOF_LINK_LIFETIME_SECONDS, type ProofLinkSigner } from '../proofs/index.ts';
import { codeEntry, PHASES, type Phase } from './codebook.ts';
import { phaseLabel, statusLabel } from './labels.ts';
import { publicView } from './public-view.ts';
import { FIRST_PAGE, type TimelinePage, type TrackingService, trackingTag } from './service.ts';
import type { OtepEvent, OtepLocation, OtepTimeline } from './timeline.ts';
import { progressRank } from './validator.ts';

export const GET_PUBLIC_TRACKING = 'get_public_tracking';

/**
 * A tracking number as the public may type it: the service issues them in capitals (a business's
 * prefix and Crockford base32), so one typed in lower case is the same number.
 */
export const trackingNumberParam = z.string().trim().toUpperCase().min(1).max(64);

/** Events a page holds at most: a long timeline is read a page at a time, newest first. */
export const MAX_EVENTS_PER_PAGE = 1000;

/** Which page of a timeline to answer: page 1 holds the newest events. */
export const eventPageParams = {
  page: z
    .int()
    .min(1)
    .default(1)
    .describe('Page of the timeline, from the newest events (1) back to the oldest'),
  per_page: z
    .int()
    .min(1)
    .max(MAX_EVENTS_PER_PAGE)
    .default(FIRST_PAGE.perPage)
    .describe(`Events a page holds, at most ${MAX_EVENTS_PER_PAGE}; each page lists its events oldest first`),
};

/**
 * Where a page of events sits in the whole timeline, in the envelope of every paged list
 * (platform/pagination.ts): `total` counts the events of the whole timeline.
 */
export const eventPageEnvelope = {
  ...pageEnvelope,
  total: pageEnvelope.total.describe('Events in the whole timeline'),
};

export function eventPageOf(read: TimelinePage, page: PageQuery) {
  return envelopeOf(page, read.totalEvents);
}

/** How long shared caches may keep a public timeline read: see docs/tracking.md. */
export const PUBLIC_TIMELINE_CACHE = { maxAgeSeconds: 30, staleWhileRevalidateSeconds: 300 };

const phase = z.enum(PHASES).nullable().describe('OTEP phase of the code; null for experimental codes');

const place = z
  .object({
    name: z.string().optional().describe('A facility or place name'),
    city: z.string().optional(),
    region: z.string().optional(),
    postal_code: z.string().optional(),
    country: z.string().optional().describe('ISO 3166-1 alpha-2'),
  })
  .describe('Where it happened: the place only, never a street or coordinates');

const event = z.object({
  occurred_at: z
    .string()
    .describe('ISO 8601 with the offset of where it happened (2026-11-02T10:30:00+01:00)'),
  status_code: z.string().describe('OTEP status code (docs/otep.md), or an experimental x- code'),
  status_text: z.string().describe("The status in the caller's language"),
  phase,
  description: z.string().nullable().describe('What the source added in words, if anything'),
  location: place.nullable(),
  after_terminal: z
    .boolean()
    .describe(
      'Reported after the parcel reached a terminal status (delivered, returned, rejected, cancelled): ' +
        'kept and shown, but it does not change the status',
    ),
});

const publicTrackingAnswer = z.object({
  result: z.literal(true),
  trackingNumber: z.string(),
  status: z
    .string()
    .nullable()
    .describe(
      'Current OTEP status code: the latest event, unless it came after a terminal one (then the terminal ' +
        'status holds); null before any event',
    ),
  status_text: z.string().nullable().describe("The current status in the caller's language"),
  phase,
  phase_text: z.string().nullable().describe("The current phase in the caller's language"),
  delivered: z.boolean().describe('The current status is delivered'),
  events: z.array(event).describe('Newest first; one page of them (see total, page and per_page)'),
  ...eventPageEnvelope,
  proof_of_delivery: z
    .object({
      delivered_at: z.string().describe('occurred_at of the latest delivered event'),
      recipient: z.string().nullable().describe('First name and initial of who took it'),
      note: z.string().nullable(),
      signature_url: z
        .string()
        .nullable()
        .describe(
          `The signature image uploaded with the delivery, as a link that opens for at most ${PROOF_LINK_LIFETIME_SECONDS / 60} minutes; null without one`,
        ),
      photo_urls: z
        .array(z.string())
        .describe('The photos uploaded with the delivery, as links like signature_url'),
      links_expire_at: z
        .string()
        .nullable()
        .describe(
          'When signature_url and photo_urls stop opening (ask again for fresh ones); null without links',
        ),
    })
    .nullable()
    .describe('From the latest delivered event; null until the parcel is delivered'),
});
export type PublicTracking = z.output<typeof publicTrackingAnswer>;

/**
 * The public tracking of a timeline in one language: what the API answers and the tracking page
 * shows. It applies the public-view policy itself, so no caller can forget it; the proof images of
 * a delivered parcel are shown through fresh signed links only, never by id or storage place.
 */
async function publicTracking(
  timeline: OtepTimeline,
  lang: Language,
  proofs: ProofLinkSigner,
): Promise<Omit<PublicTracking, keyof typeof eventPageEnvelope>> {
  const visible = publicView(timeline);
  const newestFirst = [...visible.events].reverse();
  // The whole timeline's, whatever page this is: a terminal state stays terminal.
  const status = visible.current_status;
  // The proof ids are the stored event's: the public view drops them.
  const delivery = visible.events.findLast((e) => e.status_code === 'delivered');
  const stored = delivery && timeline.events.find((e) => e.event_id === delivery.event_id);
  const links = visible.delivered && stored ? await proofLinks(stored, proofs) : null;
  return {
    result: true,
    trackingNumber: visible.subject.tracking_number ?? '',
    status: status ?? null,
    status_text: status ? statusLabel(status, lang) : null,
    phase: phaseOf(status),
    phase_text: phaseOf(status) ? phaseLabel(phaseOf(status)!, lang) : null,
    delivered: visible.delivered,
    events: newestFirst.map((e) => ({
      occurred_at: e.occurred_at,
      status_code: e.status_code,
      status_text: statusLabel(e.status_code, lang),
      phase: e.phase,
      description: e.description ?? null,
      location: e.location ? placeOf(e.location) : null,
      after_terminal: e.after_terminal === true,
    })),
    proof_of_delivery: delivery
      ? {
          delivered_at: delivery.occurred_at,
          recipient: delivery.pod?.recipient ?? null,
          note: delivery.pod?.note ?? null,
          signature_url: links?.signature ?? null,
          photo_urls: links?.photos ?? [],
          links_expire_at: links?.expiresAt ?? null,
        }
      : null,
  };
}

/** The codebook's phase of a status; null for none and for experimental codes. */
function phaseOf(status: string | undefined): Phase | null {
  return (status && codeEntry(status)?.phase) || null;
}

/** Signed links to the proof files a delivery event names; null when it names none. */
async function proofLinks(event: OtepEvent, proofs: ProofLinkSigner) {
  const signatureId = event.pod?.signature_proof_id;
  const photoIds = event.pod?.photo_proof_ids ?? [];
  if (signatureId === undefined && photoIds.length === 0) return null;
  const signature = signatureId === undefined ? undefined : await proofs.signedLink(signatureId);
  const photos = await Promise.all(photoIds.map((id) => proofs.signedLink(id)));
  const expiresAt = (signature ?? photos[0])!.expiresAt.toISOString();
  return { signature: signature?.url ?? null, photos: photos.map((photo) => photo.url), expiresAt };
}

/**
 * The version of a public tracking answer: its timeline's, and the period its proof links were
 * signed in, so a cached answer is revalidated before its links stop opening.
 */
function answerVersion(timelineVersion: string, proofs: ProofLinkSigner): string {
  return `${timelineVersion}.${proofs.linkPeriod()}`;
}

/**
 * The journey as people picture it, in four steps that fit a phone's width: `inbound` counts as
 * transit (the validator ranks them alike); before pickup nothing is reached yet; exceptions and
 * returns are no step.
 */
export const JOURNEY_STEPS = [
  'pickup',
  'transit',
  'out_for_delivery',
  'delivered',
] as const satisfies readonly Phase[];

/**
 * The index in JOURNEY_STEPS the journey is at (-1 for none), read from the most recent event as
 * the current status is, so the two never disagree: events newest first by event time (as answers
 * list them), whatever order they were stored in, skipping those after a terminal one. Before
 * pickup nothing is reached; an exception, a return or an experimental code is no step, so the
 * step of the latest event before it holds (an exception after "out for delivery" keeps its
 * progress).
 */
export function journeyStep(
  newestFirst: readonly { phase: Phase | null; after_terminal?: boolean }[],
): number {
  for (const { phase, after_terminal } of newestFirst) {
    if (after_terminal) continue;
    if (phase === 'pre_shipment') return -1;
    const rank = phase ? progressRank(phase) : undefined;
    const step = JOURNEY_STEPS.findIndex((candidate) => progressRank(candidate) === rank);
    if (step >= 0) return step;
  }
  return -1;
}

/** The place fields only (an allowlist): even a facility's street and coordinates stay off a public page. */
function placeOf({ name, city, region, postal_code, country }: OtepLocation): z.output<typeof place> {
  return { name, city, region, postal_code, country };
}

export function publicTrackingOperations(tracking: TrackingService, proofs: ProofLinkSigner): Operation[] {
  return [
    defineOperation({
      name: GET_PUBLIC_TRACKING,
      summary: 'Public tracking of a parcel: current status, event timeline and proof of delivery',
      description:
        'Public. Status and event texts follow Accept-Language. Personal data is reduced to what a ' +
        "carrier's tracking page shows: places without streets or coordinates, the recipient's first " +
        'name and initial. The same answer is rendered as a web page at /track/{number}.',
      tag: 'Tracking',
      kind: 'query',
      reads: 'replica',
      risk: 'low',
      tool: {
        developer: 'track_package',
        user: 'track_package',
        guide:
          "Where a parcel is now and how it got there, as the public tracking page shows it: status, events, proof of delivery. Use it for any 'where is my parcel' question; needs only the tracking number, no token.",
        idempotent: true,
        arguments: { tracking_number: 'trackingNumber' },
      },
      access: { public: true },
      errors: ['TRACKING_NOT_FOUND'],
      rest: { method: 'GET', path: '/v1/tracking/:trackingNumber', etag: true, cache: PUBLIC_TIMELINE_CACHE },
      graphql: 'trackingPublic',
      input: z.object({ trackingNumber: trackingNumberParam, ...eventPageParams }),
      output: publicTrackingAnswer,
      // Kept until an event of the number is stored, and no longer than its proof links' period.
      publicCache: {
        tags: (input) => [trackingTag(input.trackingNumber)],
        variant: () => String(proofs.linkPeriod()),
      },
      version: async (ctx, input) => {
        const version = await tracking.timelineVersion(ctx.db, input.trackingNumber);
        return version === null ? null : answerVersion(version, proofs);
      },
      handler: async (ctx, input) => {
        const read = await tracking.timeline(ctx.db, input.trackingNumber, {
          page: input.page,
          perPage: input.per_page,
        });
        ctx.answer.version = answerVersion(read.version, proofs);
        return { ...(await publicTracking(read.timeline, ctx.lang, proofs)), ...eventPageOf(read, input) };
      },
    }),
  ];
}
