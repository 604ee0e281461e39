import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Phase } from '../../modules/tracking/index.ts';
import {
  GET_PUBLIC_TRACKING,
  JOURNEY_STEPS,
  journeyStep,
  offsetOf,
  type PublicTracking,
  phaseLabel,
  type UiKey,
  uiText,
} from '../../modules/tracking/index.ts';
import type { Executor } from '../../platform/catalog/executor.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { isAppError } from '../../platform/errors.ts';
import { html, type SafeHtml } from '../../platform/html.ts';
import { type Language, supportedLanguage } from '../../platform/i18n/index.ts';
import { invocationOf } from '../invocation.ts';
import { languageLinks, sendPage } from './layout.ts';

/** The tracking page's own look, on the pages' base: the status big, the journey, the timeline. */
const CSS = `
.number{overflow-wrap:anywhere}
.number strong{font-family:ui-monospace,Menlo,Consolas,monospace}
.status{border-top:6px solid #1a56a8}
.status.done{border-color:#1b7a3c}
.status.alert{border-color:#b3261e}
.status h2{color:#4b5259;font-size:.875rem;font-weight:600}
.status-text{font-size:2rem;font-weight:700;line-height:1.2;overflow-wrap:anywhere}
.done .status-text{color:#14602f}
.alert .status-text{color:#9c2019}
.steps{display:grid;grid-template-columns:repeat(4,minmax(0,1fr));gap:.25rem;list-style:none;margin:1rem 0 0;padding:0;font-size:.75rem;line-height:1.3}
.steps li{border-top:4px solid #d4d8dd;padding-top:.25rem;color:#4b5259;overflow-wrap:break-word}
.steps .reached{border-color:#1a56a8;color:#1b1e23}
.steps [aria-current]{font-weight:700}
.timeline{list-style:none;margin:0;padding:0}
.timeline li{position:relative;margin-left:.4rem;padding:0 0 1rem 1.25rem;border-left:2px solid #d4d8dd}
.timeline li:last-child{border-left-color:transparent;padding-bottom:0}
.timeline li::before{content:"";position:absolute;left:-7px;top:.4rem;width:12px;height:12px;border-radius:50%;background:#8a9199}
.timeline li:first-child::before{background:#1a56a8}
.event-status{font-weight:600;margin:0}
.timeline .meta,.timeline p{margin:0}
.proofs{display:flex;flex-wrap:wrap;gap:.5rem;margin:1rem 0 0;padding:0;list-style:none}
.proofs img{display:block;max-width:100%;max-height:16rem;border:1px solid #d4d8dd;border-radius:8px;background:#fff}
`;

/**
 * The public tracking page: `/track/:number` renders the answer of the `get_public_tracking`
 * operation (GET /api/v1/tracking/{number}) for people, and `/track` asks for a number.
 * Server-rendered, no script.
 */
export function registerTrackingPage(app: FastifyInstance, catalog: Catalog, executor: Executor): void {
  const operation = catalog.get(GET_PUBLIC_TRACKING);
  if (!operation) throw new Error(`The catalog has no ${GET_PUBLIC_TRACKING} operation`);
  /** The operation's answer; null for a number that is unknown or cannot be one. */
  const find = async (request: FastifyRequest, number: string, lang: Language) => {
    // The page shows the public view to whoever reads it, whatever credentials the browser sends.
    const invocation = invocationOf(request, 'page', { lang, anonymous: true });
    try {
      return (await executor.execute(operation, { trackingNumber: number }, invocation)) as PublicTracking;
    } catch (error) {
      if (isAppError(error) && (error.code === 'TRACKING_NOT_FOUND' || error.code === 'VALIDATION_FAILED')) {
        return null;
      }
      throw error;
    }
  };

  app.get('/track', async (request, reply) => {
    const view = viewOf(request);
    const { number } = request.query as { number?: unknown };
    if (typeof number === 'string' && number.trim()) {
      return reply.redirect(view.url(`/track/${encodeURIComponent(number.trim())}`), 303);
    }
    const body = html`<h1>${view.text('title')}</h1>
<div class="card"><p>${view.text('formHint')}</p>${searchForm(view)}</div>`;
    return send(reply, view, { status: 200, title: view.text('title'), path: '/track', body });
  });

  app.get<{ Params: { number: string } }>('/track/:number', async (request, reply) => {
    const view = viewOf(request);
    const found = await find(request, request.params.number, view.lang);
    const path = `/track/${encodeURIComponent(request.params.number)}`;
    if (!found) {
      const body = html`<h1>${view.text('notFoundTitle')}</h1>
<div class="card"><p class="number">${view.text('trackingNumber')} <strong>${request.params.number}</strong></p>
<p>${view.text('notFoundText')}</p>${searchForm(view, request.params.number)}</div>`;
      return send(reply, view, { status: 404, title: view.text('notFoundTitle'), path, body });
    }
    const title = `${found.trackingNumber}: ${found.status_text ?? view.text('title')}`;
    return send(reply, view, {
      status: 200,
      title,
      path,
      body: trackingBody(found, view),
      imageSources: proofOrigins(found.proof_of_delivery),
    });
  });
}

/** How one visit is rendered: its language, and whether the visitor chose it with `?lang=`. */
interface View {
  lang: Language;
  text(key: UiKey): string;
  /** A link on this site that keeps a chosen language. */
  url(path: string): string;
  /** The `?lang=` the visitor chose, carried through the search form. */
  chosen: Language | undefined;
}

function viewOf(request: FastifyRequest): View {
  const chosen = chosenLanguage(request);
  const lang = chosen ?? request.lang;
  return {
    lang,
    chosen,
    text: (key) => uiText(key, lang),
    url: (path) => (chosen ? `${path}?lang=${chosen}` : path),
  };
}

/** `?lang=` wins when it names a language we speak (`de`, `zh-TW`, ...); otherwise Accept-Language does. */
function chosenLanguage(request: FastifyRequest): Language | undefined {
  const asked = (request.query as { lang?: unknown }).lang;
  return typeof asked === 'string' ? supportedLanguage(asked) : undefined;
}

interface Page {
  status: number;
  title: string;
  /** This page's path, for the language links. */
  path: string;
  /** What goes in <main>. */
  body: SafeHtml;
  /** Where its images come from (the proof links' origin). */
  imageSources?: readonly string[];
}

function send(reply: FastifyReply, view: View, { status, title, path, body, imageSources }: Page) {
  const footer = languageLinks(view.lang, view.text('language'), (lang) => `${path}?lang=${lang}`);
  reply.header('cache-control', 'public, max-age=60');
  return sendPage(reply, { status, lang: view.lang, title, body, footer, css: CSS, imageSources });
}

/** The origins of the proof images a delivery shows, for the page's content security policy. */
function proofOrigins(pod: PublicTracking['proof_of_delivery']): string[] {
  const links = pod ? [...(pod.signature_url ? [pod.signature_url] : []), ...pod.photo_urls] : [];
  return [...new Set(links.map((link) => new URL(link).origin))];
}

function trackingBody(found: PublicTracking, view: View): SafeHtml {
  // What set the status shown: the latest event not reported after a terminal one.
  const latest = found.events.find((event) => !event.after_terminal) ?? found.events[0];
  return html`<h1>${view.text('title')}</h1>
<p class="number">${view.text('trackingNumber')} <strong>${found.trackingNumber}</strong></p>
<section class="card status ${tone(found.phase)}" aria-labelledby="status-heading">
<h2 id="status-heading">${view.text('currentStatus')}</h2>
<p class="status-text">${found.status_text ?? view.text('noEvents')}</p>
${latest ? html`<p class="meta">${eventWhenAndWhere(latest, view.lang)}</p>` : ''}
${journey(found, view)}
</section>
${found.proof_of_delivery ? proofOfDelivery(found.proof_of_delivery, view) : ''}
${found.events.length > 0 ? history(found.events, view) : ''}
<section class="card" aria-labelledby="search-heading">
<h2 id="search-heading">${view.text('trackAnother')}</h2>
${searchForm(view)}
</section>`;
}

function proofOfDelivery(pod: NonNullable<PublicTracking['proof_of_delivery']>, view: View): SafeHtml {
  return html`<section class="card" aria-labelledby="pod-heading">
<h2 id="pod-heading">${view.text('proofOfDelivery')}</h2>
<dl>
<dt>${view.text('delivered')}</dt><dd>${localTime(pod.delivered_at, view.lang)}</dd>
${pod.recipient ? html`<dt>${view.text('signedBy')}</dt><dd>${pod.recipient}</dd>` : ''}
${pod.note ? html`<dt>${view.text('note')}</dt><dd>${pod.note}</dd>` : ''}
</dl>
${proofImages(pod, view)}
</section>`;
}

/** The signature and photos, through their short-lived links (the page is cached for less than they live). */
function proofImages(pod: NonNullable<PublicTracking['proof_of_delivery']>, view: View): SafeHtml | '' {
  const images = [
    ...(pod.signature_url ? [{ src: pod.signature_url, alt: view.text('signature') }] : []),
    ...pod.photo_urls.map((src) => ({ src, alt: view.text('deliveryPhoto') })),
  ];
  if (images.length === 0) return '';
  const items = images.map(({ src, alt }) => html`<li><img src="${src}" alt="${alt}" loading="lazy"></li>`);
  return html`<ul class="proofs">${items}</ul>`;
}

function history(events: PublicEvent[], view: View): SafeHtml {
  const items = events.map(
    (event) => html`<li>
<p class="event-status">${event.status_text}</p>
<p class="meta">${eventWhenAndWhere(event, view.lang)}</p>
${event.description ? html`<p>${event.description}</p>` : ''}
</li>
`,
  );
  return html`<section class="card" aria-labelledby="history-heading">
<h2 id="history-heading">${view.text('history')}</h2>
<p class="meta">${view.text('localTimes')}</p>
<ol class="timeline">
${items}</ol>
</section>`;
}

function tone(phase: Phase | null): string {
  if (phase === 'delivered') return 'done';
  return phase === 'exception' || phase === 'return' ? 'alert' : '';
}

/** The journey's steps, the furthest one reached marked as current. */
function journey(found: PublicTracking, view: View): SafeHtml | '' {
  if (found.events.length === 0) return '';
  const reached = journeyStep(found.events);
  const steps = JOURNEY_STEPS.map((phase, index) => {
    const label = phaseLabel(phase, view.lang);
    if (index === reached) return html`<li class="reached" aria-current="step">${label}</li>`;
    return html`<li${index < reached ? html` class="reached"` : ''}>${label}</li>`;
  });
  return html`<ol class="steps" aria-label="${view.text('journey')}">${steps}</ol>`;
}

type PublicEvent = PublicTracking['events'][number];

function eventWhenAndWhere(event: PublicEvent, lang: Language): SafeHtml {
  const place = event.location ? placeText(event.location, lang) : '';
  return html`${localTime(event.occurred_at, lang)}${place ? ` · ${place}` : ''}`;
}

const formatters = new Map<Language, Intl.DateTimeFormat>();

/**
 * The time as it was on the clock where the event happened, with its offset. The wall-clock part
 * of the ISO string is formatted as if it were UTC, which leaves it unchanged: Node 20's Intl
 * does not take an offset such as "+01:00" as a time zone.
 */
function localTime(occurredAt: string, lang: Language): SafeHtml {
  const offset = offsetOf(occurredAt);
  const wallClock = new Date(`${occurredAt.slice(0, 19)}Z`);
  let format = formatters.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' });
    formatters.set(lang, format);
  }
  const zone = offset === 'Z' ? 'UTC' : `UTC${offset}`;
  return html`<time datetime="${occurredAt}">${format.format(wallClock)} (${zone})</time>`;
}

/** "Lyon hub, Lyon, France": the place's name and town, the country in the visitor's language. */
function placeText(location: NonNullable<PublicEvent['location']>, lang: Language): string {
  return [location.name, location.city, location.country && countryName(location.country, lang)]
    .filter(Boolean)
    .join(', ');
}

function countryName(code: string, lang: Language): string {
  if (!/^[A-Za-z]{2}$/.test(code)) return code;
  return new Intl.DisplayNames(lang, { type: 'region' }).of(code.toUpperCase()) ?? code;
}

function searchForm(view: View, value = ''): SafeHtml {
  return html`<form method="get" action="/track">
<label for="number">${view.text('trackingNumber')}</label>
<input id="number" name="number" value="${value}" required maxlength="64" autocomplete="off" autocapitalize="characters" spellcheck="false">
${view.chosen ? html`<input type="hidden" name="lang" value="${view.chosen}">` : ''}
<button type="submit">${view.text('track')}</button>
</form>`;
}
