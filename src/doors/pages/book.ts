import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Executor } from '../../platform/catalog/executor.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { isValidTimeZone } from '../../platform/clock.ts';
import { isAppError } from '../../platform/errors.ts';
import { html, type SafeHtml } from '../../platform/html.ts';
import { errorBody } from '../../platform/http/errors.ts';
import { BOOK_TEXTS, type BookTextKey } from './book-texts.ts';
import { languageLinks, sendPage } from './layout.ts';
import { acceptForms, type PageView, pageCalls, pageView } from './sign-in.ts';

/** The booking page's own look, on the pages' base. */
const CSS = `
fieldset{border:0;margin:0 0 1rem;padding:0;min-width:0}
legend{font-weight:600;margin-bottom:.5rem}
.slot{display:flex;gap:.5rem;align-items:center;padding:.5rem 0;border-bottom:1px solid #e3e6ea}
.slot label{flex-basis:auto;font-weight:400}
.slot input{flex:0 0 auto}
.full{color:#4b5259}
.refusal{border-left:6px solid #b3261e;color:#7a1b15}
.hint{color:#4b5259;font-size:.875rem;flex-basis:100%;margin:0}
`;

export type View = PageView<BookTextKey>;

interface Slot {
  starts_at: string;
  remaining: number;
  waitlist_open: boolean;
}
interface Slots {
  resource: { name: string; time_zone: string };
  slots: Slot[];
}
interface Booked {
  booking: { reference: string; state: string; starts_at: string; code_expires_at: string | null };
  links?: { page: string; calendar: string };
}

/**
 * The public booking page, `/book/{business code}/{resource id}`: a person picks a slot, gives a
 * name and a contact, types the code sent there, and is booked, without an account. It is a door
 * over `list_open_slots`, `book_slot` and `confirm_reservation`; server-rendered forms, no script.
 * No CSRF token: nobody is signed in here, so a forged form could do only what the public API does.
 */
export function registerBookingPage(app: FastifyInstance, catalog: Catalog, executor: Executor): void {
  const calls = pageCalls(catalog, executor);
  const openSlots = calls.operation('list_open_slots');
  const bookSlot = calls.operation('book_slot');
  const confirm = calls.operation('confirm_reservation');
  type Params = { business: string; resource: string };
  const refOf = (params: Params) => ({ business: params.business, resource_id: Number(params.resource) });

  const slotsOf = async (request: FastifyRequest<{ Params: Params }>, view: View) => {
    try {
      return (await calls.run(request, view.lang, openSlots, { ...refOf(request.params), days: 7 })) as Slots;
    } catch (error) {
      if (isAppError(error) && ['RESERVATION_RESOURCE_NOT_FOUND', 'VALIDATION_FAILED'].includes(error.code))
        return null;
      throw error;
    }
  };

  const bookingForm = async (
    request: FastifyRequest<{ Params: Params }>,
    reply: FastifyReply,
    view: View,
    refusal?: string,
    fields: Record<string, string> = {},
  ) => {
    const found = await slotsOf(request, view);
    if (!found) {
      const body = html`<h1>${view.text('notFoundTitle')}</h1><div class="card"><p>${view.text('notFoundText')}</p></div>`;
      return send(reply, view, 404, view.text('notFoundTitle'), body);
    }
    const bookable = found.slots.filter((slot) => slot.remaining > 0 || slot.waitlist_open);
    const slots = bookable.map((slot, index) => {
      const id = `slot-${index}`;
      const label = html`${when(slot.starts_at, found.resource.time_zone, view.lang)}, ${
        slot.remaining > 0
          ? view.text('placesLeft').replace('{count}', String(slot.remaining))
          : html`<span class="full">${view.text('fullWaitlist')}</span>`
      }`;
      return html`<div class="slot"><input type="radio" id="${id}" name="starts_at" value="${slot.starts_at}" required${
        fields.starts_at === slot.starts_at ? html` checked` : ''
      }><label for="${id}">${label}</label></div>`;
    });
    const body = html`<h1>${found.resource.name}</h1>
${refusal ? html`<div class="card refusal" role="alert"><p>${refusal}</p></div>` : ''}
<div class="card">${
      bookable.length === 0
        ? html`<p>${view.text('noSlots')}</p>`
        : html`<form method="post" action="${view.url(view.path)}">
<fieldset><legend>${view.text('chooseSlot')}</legend>${slots}</fieldset>
<label for="name">${view.text('name')}</label>
<input id="name" name="name" autocomplete="name" required maxlength="200" value="${fields.name ?? ''}">
<label for="contact">${view.text('contact')}</label>
<p class="hint" id="contact-hint">${view.text('contactHint')}</p>
<input id="contact" name="contact" autocomplete="email" required maxlength="254" aria-describedby="contact-hint" value="${fields.contact ?? ''}">
<button type="submit">${view.text('book')}</button>
</form>`
    }</div>`;
    return send(reply, view, refusal ? 422 : 200, found.resource.name, body);
  };

  const codeForm = (
    reply: FastifyReply,
    view: View,
    booked: Booked,
    held: { contact: string; timeZone: string },
    refusal?: string,
  ) => {
    const until = booked.booking.code_expires_at
      ? clockTime(booked.booking.code_expires_at, held.timeZone, view.lang)
      : '';
    const contact = held.contact;
    const body = html`<h1>${view.text('codeTitle')}</h1>
${refusal ? html`<div class="card refusal" role="alert"><p>${refusal}</p></div>` : ''}
<div class="card">
<p>${view.text('codeSent').replace('{contact}', contact).replace('{until}', until)}</p>
${booked.booking.state === 'waitlisted' ? html`<p>${view.text('waitlistHeld')}</p>` : ''}
<form method="post" action="${view.url(`${view.path.replace(/\/confirm$/, '')}/confirm`)}">
<input type="hidden" name="reference" value="${booked.booking.reference}">
<input type="hidden" name="contact" value="${contact}">
<input type="hidden" name="time_zone" value="${held.timeZone}">
<input type="hidden" name="state" value="${booked.booking.state}">
<input type="hidden" name="code_expires_at" value="${booked.booking.code_expires_at ?? ''}">
<label for="code">${view.text('code')}</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required>
<button type="submit">${view.text('confirm')}</button>
</form></div>`;
    return send(reply, view, refusal ? 422 : 200, view.text('codeTitle'), body);
  };

  app.register(async (scope) => {
    acceptForms(scope);

    scope.get<{ Params: Params }>('/book/:business/:resource', (request, reply) =>
      bookingForm(request, reply, pageView(request, BOOK_TEXTS)),
    );

    scope.post<{ Params: Params; Body: Record<string, string> }>(
      '/book/:business/:resource',
      async (request, reply) => {
        const view = pageView(request, BOOK_TEXTS);
        const fields = request.body ?? {};
        try {
          const booked = (await calls.run(request, view.lang, bookSlot, {
            ...refOf(request.params),
            starts_at: fields.starts_at ?? '',
            name: fields.name ?? '',
            contact: fields.contact ?? '',
          })) as Booked;
          const timeZone = (await slotsOf(request, view))?.resource.time_zone ?? 'UTC';
          return codeForm(reply, view, booked, { contact: fields.contact ?? '', timeZone });
        } catch (error) {
          if (!isAppError(error) || error.status >= 500) throw error;
          return bookingForm(request, reply, view, refusalText(error, view), fields);
        }
      },
    );

    scope.post<{ Params: Params; Body: Record<string, string> }>(
      '/book/:business/:resource/confirm',
      async (request, reply) => {
        const view = pageView(request, BOOK_TEXTS);
        const fields = request.body ?? {};
        try {
          const done = (await calls.run(request, view.lang, confirm, {
            reference: fields.reference ?? '',
            code: fields.code ?? '',
          })) as Booked;
          const found = await slotsOf(request, view);
          const time = when(done.booking.starts_at, found?.resource.time_zone ?? 'UTC', view.lang);
          const waiting = done.booking.state === 'waitlisted';
          const title = view.text(waiting ? 'waitingTitle' : 'confirmedTitle');
          const text = view
            .text(waiting ? 'waitingText' : 'confirmedText')
            .replace('{resource}', found?.resource.name ?? '')
            .replace('{time}', time);
          const body = html`<h1>${title}</h1><div class="card" role="status"><p>${text}</p>
<p><a href="${done.links!.calendar}">${view.text('calendar')}</a></p>
<p><a href="${done.links!.page}">${view.text('manage')}</a></p></div>`;
          return send(reply, view, 200, title, body);
        } catch (error) {
          if (!isAppError(error) || error.status >= 500) throw error;
          if (error.code === 'RESERVATION_CODE_EXPIRED' || error.code === 'RESERVATION_NOT_FOUND') {
            return bookingForm(request, reply, view, refusalText(error, view));
          }
          const booked: Booked = {
            booking: {
              reference: fields.reference ?? '',
              state: fields.state ?? 'held',
              starts_at: '',
              code_expires_at: fields.code_expires_at || null,
            },
          };
          const held = { contact: fields.contact ?? '', timeZone: validZone(fields.time_zone) };
          return codeForm(reply, view, booked, held, refusalText(error, view));
        }
      },
    );
  });
}

/** The refusal as the reader's language words it, with the fields it names. */
export function refusalText(error: Parameters<typeof errorBody>[0], view: View): string {
  const body = errorBody(error, view.lang, '');
  const fields = (body.details as { fields?: Array<{ field: string; message: string }> } | undefined)?.fields;
  return fields?.length
    ? `${body.message} ${fields.map((f) => `${f.field}: ${f.message}`).join(' ')}`
    : body.message;
}

/** A slot's start as people read it, on the resource's wall clock. */
export function when(startsAt: string, timeZone: string, lang: string): string {
  return new Intl.DateTimeFormat(lang, {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(startsAt));
}

/** A time of day as people read it, on the resource's wall clock. */
export function clockTime(at: string, timeZone: string, lang: string): string {
  return new Intl.DateTimeFormat(lang, { timeZone, hour: '2-digit', minute: '2-digit' }).format(new Date(at));
}

/** The time zone a form carried back, when it is one. */
function validZone(zone: string | undefined): string {
  return zone && isValidTimeZone(zone) ? zone : 'UTC';
}

export function send(
  reply: FastifyReply,
  view: View,
  status: number,
  title: string,
  body: SafeHtml,
  keep: Record<string, string> = {},
) {
  // Posted pages (a code, a cancel): the language links lead back to the page they came from.
  const base = view.path.replace(/\/(confirm|cancel|accept)$/, '');
  const footer = languageLinks(
    view.lang,
    view.text('language'),
    (lang) => `${base}?${new URLSearchParams({ ...keep, lang })}`,
  );
  reply.header('cache-control', 'no-store');
  return sendPage(reply, { status, lang: view.lang, title, body, footer, css: CSS });
}
