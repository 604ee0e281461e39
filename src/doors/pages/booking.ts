import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Executor } from '../../platform/catalog/executor.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { isAppError } from '../../platform/errors.ts';
import { html } from '../../platform/html.ts';
import { clockTime, refusalText, send, type View, when } from './book.ts';
import { BOOK_TEXTS, type BookTextKey } from './book-texts.ts';
import { acceptForms, pageCalls, pageView } from './sign-in.ts';

interface Shown {
  booking: {
    resource_name: string;
    time_zone: string;
    state: string;
    starts_at: string;
    offer_expires_at: string | null;
  };
  links: { calendar: string };
}

const STATE_TEXT: Record<string, BookTextKey> = {
  held: 'stateHeld',
  confirmed: 'stateConfirmed',
  waitlisted: 'stateWaitlisted',
  offered: 'stateOffered',
  cancelled: 'stateCancelled',
  attended: 'stateAttended',
  lapsed: 'stateLapsed',
};

/**
 * A booking's own page, `/booking/{reference}?signature=…`: the signed link its messages carry.
 * It shows the booking and offers what its state allows (cancel; accept a waitlist offer), as a
 * door over `get_reservation`, `cancel_reservation_by_link` and `accept_reservation_offer`. The
 * signature is the credential; a wrong one reads as no booking.
 */
export function registerBookingManagePage(app: FastifyInstance, catalog: Catalog, executor: Executor): void {
  const calls = pageCalls(catalog, executor);
  const get = calls.operation('get_reservation');
  const actions = {
    cancel: calls.operation('cancel_reservation_by_link'),
    accept: calls.operation('accept_reservation_offer'),
  };
  type Params = { reference: string };

  const show = async (
    request: FastifyRequest<{ Params: Params }>,
    reply: FastifyReply,
    view: View,
    signature: string,
    refusal?: string,
  ) => {
    let shown: Shown;
    try {
      shown = (await calls.run(request, view.lang, get, {
        reference: request.params.reference,
        signature,
      })) as Shown;
    } catch (error) {
      if (!isAppError(error) || error.status >= 500) throw error;
      const body = html`<h1>${view.text('notFoundTitle')}</h1><div class="card"><p>${view.text('notFoundText')}</p></div>`;
      return send(reply, view, 404, view.text('notFoundTitle'), body);
    }
    const { booking } = shown;
    const base = `/booking/${encodeURIComponent(request.params.reference)}`;
    const action = (name: 'cancel' | 'accept', label: BookTextKey) =>
      html`<form method="post" action="${view.url(`${base}/${name}`)}"><input type="hidden" name="signature" value="${signature}"><button type="submit">${view.text(label)}</button></form>`;
    const live = ['held', 'confirmed', 'waitlisted', 'offered'].includes(booking.state);
    const body = html`<h1>${booking.resource_name}</h1>
${refusal ? html`<div class="card refusal" role="alert"><p>${refusal}</p></div>` : ''}
<div class="card" role="status">
<p><strong>${view.text(STATE_TEXT[booking.state] ?? 'stateConfirmed')}</strong></p>
<p>${when(booking.starts_at, booking.time_zone, view.lang)}</p>
${
  booking.state === 'offered' && booking.offer_expires_at
    ? html`<p>${view.text('offerUntil').replace('{time}', `${clockTime(booking.offer_expires_at, booking.time_zone, view.lang)}`)}</p>${action('accept', 'acceptOffer')}`
    : ''
}
<p><a href="${shown.links.calendar}">${view.text('calendar')}</a></p>
${live ? action('cancel', 'cancelBooking') : ''}
</div>`;
    return send(reply, view, refusal ? 409 : 200, booking.resource_name, body, { signature });
  };

  app.register(async (scope) => {
    acceptForms(scope);
    scope.get<{ Params: Params; Querystring: { signature?: string } }>(
      '/booking/:reference',
      (request, reply) =>
        show(request, reply, pageView(request, BOOK_TEXTS), String(request.query.signature ?? '')),
    );
    for (const name of ['cancel', 'accept'] as const) {
      scope.post<{ Params: Params; Body: Record<string, string> }>(
        `/booking/:reference/${name}`,
        async (request, reply) => {
          const view = pageView(request, BOOK_TEXTS);
          const signature = request.body?.signature ?? '';
          try {
            await calls.run(request, view.lang, actions[name], {
              reference: request.params.reference,
              signature,
            });
          } catch (error) {
            if (!isAppError(error) || error.status >= 500) throw error;
            return show(request, reply, view, signature, refusalText(error, view));
          }
          const target = `/booking/${encodeURIComponent(request.params.reference)}`;
          return reply.redirect(view.url(target, { signature }), 303);
        },
      );
    }
  });
}
