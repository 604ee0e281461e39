import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PageSessions } from '../../modules/approvals/index.ts';
import type { Executor } from '../../platform/catalog/executor.ts';
import { type Operation, Representation } from '../../platform/catalog/operation.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { AppError, isAppError } from '../../platform/errors.ts';
import { html, SafeHtml } from '../../platform/html.ts';
import { errorBody } from '../../platform/http/errors.ts';
import { EVENT_STREAM, EventStream, LiveAnswers } from '../../platform/http/event-stream.ts';
import { AgentPanel } from './agent-panel.ts';
import { DISPATCH_TEXTS, type DispatchTextKey } from './dispatch-texts.ts';
import { languageLinks, pageScript, sendPage } from './layout.ts';
import { type MapTiles, mapPageAssets } from './map-assets.ts';
import { SCRIPT_TEXTS } from './script-texts.ts';
import {
  type FormRefusal,
  PageSignIn,
  type PageView,
  pageCalls,
  pageView,
  signedInBar,
  signInForm,
} from './sign-in.ts';

/**
 * The dispatcher's console: `/dispatch` signs a person in as the approval queue does
 * (./sign-in.ts), then shows the day's board (`get_dispatch_board`) on a map with its exceptions
 * and unplanned orders, kept live by the board's stream. The page's script (browser/console.js)
 * draws what the page's own JSON routes answer; they run the catalog's operations as the person
 * signed in, so the page can do nothing its person could not do through the API.
 */
const BASE = '/dispatch';
type View = PageView<DispatchTextKey>;

export function registerDispatchPage(
  app: FastifyInstance,
  catalog: Catalog,
  executor: Executor,
  sessions: PageSessions,
  settings: { secureCookies: boolean; mapTiles: MapTiles },
): void {
  const calls = pageCalls(catalog, executor);
  const me = calls.operation('get_me');
  const board = calls.operation('get_dispatch_board');
  const order = calls.operation('get_order_detail');
  const signIn = new PageSignIn(BASE, 'tms_dispatch', sessions, settings.secureCookies, calls);
  const liveAnswers = new LiveAnswers(app);
  const script = pageScript(app, BASE, 'console');
  const agent = new AgentPanel(app, BASE, signIn, calls, executor, (request) => viewOf(request).lang);

  /** The console, or the sign-in form when the session is missing, over, or may not read the board. */
  const show = async (request: FastifyRequest, reply: FastifyReply, refusal?: FormRefusal) => {
    const view = viewOf(request);
    let notice = refusal?.message;
    const session = await signIn.sessionOf(request);
    if (session?.person) {
      try {
        // Whoever may not read the board is told so now, not by a console that never fills.
        const refused = executor.refusal(board, session.person, 'page');
        if (refused) throw refused;
        const who = (await calls.run(request, view.lang, me, {}, session.person)) as {
          user: { name: string; email: string };
        };
        const csrf = signIn.csrfOf(session.id);
        const panel = await agent.body(request, view.lang, session.person, csrf);
        const body = consoleBody(view, who.user, csrf, settings, panel);
        return page(reply, view, refusal?.status ?? 200, body, true);
      } catch (error) {
        if (!isAppError(error)) throw error;
        await signIn.signOut(request, reply, view.lang, session);
        if (error.code !== 'UNAUTHENTICATED') notice = notice ?? errorBody(error, view.lang, '').message;
      }
    } else if (session) {
      signIn.forget(reply);
    }
    const csrf = signIn.issueSignInCsrf(reply);
    return page(reply, view, refusal?.status ?? 200, signInBody(view, csrf, notice), false);
  };

  const page = (reply: FastifyReply, view: View, status: number, body: SafeHtml, console: boolean) => {
    reply.header('cache-control', 'no-store');
    const footer = languageLinks(view.lang, view.text('language'), (lang) => `${BASE}?lang=${lang}`);
    return sendPage(reply, {
      status,
      lang: view.lang,
      title: view.text('title'),
      body,
      footer,
      css: CSS,
      ...(console ? withScript(mapPageAssets(script, settings.mapTiles), agent.scriptAddress) : {}),
    });
  };

  /** A read of the page's script, as the session's person; refusals in the error shape. */
  const read = async (
    request: FastifyRequest,
    reply: FastifyReply,
    operation: Operation,
    input: Record<string, unknown>,
    representation?: string,
  ) => {
    const view = viewOf(request);
    reply.header('cache-control', 'no-store');
    try {
      const session = await signIn.sessionOf(request);
      if (!session?.person) throw new AppError('UNAUTHENTICATED');
      return await calls.run(request, view.lang, operation, input, session.person, representation);
    } catch (error) {
      if (!isAppError(error)) throw error;
      return reply.status(error.status).send(errorBody(error, view.lang, request.id));
    }
  };

  app.get(BASE, (request, reply) => show(request, reply));
  app.get<{ Params: { id: string } }>(`${BASE}/orders/:id.json`, (request, reply) =>
    read(request, reply, order, { order_id: Number(request.params.id) }),
  );
  // The board as a live stream (server-sent events): a snapshot, then its changes.
  app.get<{ Querystring: { date?: string } }>(`${BASE}/stream`, async (request, reply) => {
    const date = request.query.date;
    const answer = await read(request, reply, board, date ? { date } : {}, EVENT_STREAM);
    if (answer instanceof Representation && answer.body instanceof EventStream) {
      return liveAnswers.write(reply, answer.body);
    }
    return answer;
  });
  signIn.registerForms(app, { viewOf, show });
}

function viewOf(request: FastifyRequest): View {
  return pageView(request, DISPATCH_TEXTS);
}

function signInBody(view: View, csrf: string, notice: string | undefined): SafeHtml {
  return html`<h1>${view.text('title')}</h1>
${notice ? html`<p class="notice alert" role="alert">${notice}</p>` : ''}
${signInForm(view.text, view.text('signInHint'), view.url(`${BASE}/sign-in`), csrf)}`;
}

/** The map page's assets with one more script, run after the others. */
function withScript(assets: ReturnType<typeof mapPageAssets>, address: string) {
  return { ...assets, assets: { ...assets.assets, scripts: [...assets.assets.scripts, address] } };
}

function consoleBody(
  view: View,
  who: { name: string; email: string },
  csrf: string,
  settings: { mapTiles: MapTiles },
  agentPanel: SafeHtml,
): SafeHtml {
  // Data for the script, never run: `<` escaped so no text in it can close the element.
  const data = JSON.stringify({
    lang: view.lang,
    texts: SCRIPT_TEXTS.console[view.lang],
    stream: `${BASE}/stream`,
    orders: `${BASE}/orders/`,
    tiles: settings.mapTiles ?? null,
  }).replaceAll('<', '\\u003c');
  return html`<header class="bar">
<h1>${view.text('title')}</h1>
${signedInBar(view.text, who, view.url(`${BASE}/sign-out`), csrf)}
</header>
<form id="day" class="filters">
<label for="date">${view.text('day')}</label>
<input id="date" name="date" type="date" required>
<button type="submit">${view.text('show')}</button>
<p id="live" class="meta" role="status">${view.text('loading')}</p>
</form>
<p class="meta">${view.text('observedOnly')}</p>
<div class="console">
<div id="map" role="region" aria-label="${view.text('map')}"></div>
<div class="side">
${agentPanel}
<section class="card" aria-labelledby="order-heading">
<h2 id="order-heading">${view.text('order')}</h2>
<div id="order" aria-live="polite"><p class="meta">${view.text('chooseStop')}</p></div>
</section>
<section class="card" aria-labelledby="exceptions-heading">
<h2 id="exceptions-heading">${view.text('exceptions')}</h2>
<ul id="exceptions" class="list"></ul>
</section>
<section class="card" aria-labelledby="routes-heading">
<h2 id="routes-heading">${view.text('routes')}</h2>
<ul id="routes" class="list"></ul>
</section>
<section class="card" aria-labelledby="unplanned-heading">
<h2 id="unplanned-heading">${view.text('unplanned')}</h2>
<ul id="unplanned" class="list"></ul>
</section>
</div>
</div>
<script type="application/json" id="console-data">${new SafeHtml(data)}</script>`;
}

const CSS = `
main{max-width:none}
.bar{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem}
.who{align-items:center;gap:.5rem}
.who p{margin:0}
button.secondary{background:#fff;color:#1a56a8;border:2px solid #1a56a8}
.filters{align-items:center;margin:.5rem 0}
.filters label{flex-basis:auto}
.filters input,.filters select{flex:0 1 12rem;font:inherit;padding:.5rem;border:1px solid #767d85;border-radius:8px;background:#fff}
.filters p{margin:0 0 0 auto}
.console{display:grid;grid-template-columns:minmax(0,1fr);gap:1rem}
#map{height:60vh;min-height:18rem;border-radius:12px;background:#e8eef2}
.list{list-style:none;margin:0;padding:0}
.list li{padding:.375rem 0;border-top:1px solid #e2e5e9}
.list li:first-child{border-top:0}
.list button{background:none;color:#1a56a8;padding:0;font-weight:600;text-align:left}
.notice{padding:.75rem 1rem;border-radius:8px;margin:0 0 1rem;font-weight:600}
.notice.alert{background:#fbe4e2;color:#8a1c15}
.stack{flex-direction:column;flex-wrap:nowrap;align-items:stretch}
.stack label,.stack input,.stack textarea{flex:0 0 auto}
.agent textarea{font:inherit;padding:.5rem;border:1px solid #767d85;border-radius:8px}
.agent-log{list-style:none;margin:0 0 .75rem;padding:0;max-height:50vh;overflow-y:auto}
.agent-log .turn{padding:.5rem 0;border-top:1px solid #e2e5e9}
.agent-log .turn:first-child{border-top:0}
.agent-log .who{font-weight:600;margin:0}
.agent-log .refusal p:last-child{color:#8a1c15}
.agent-log .refused{color:#8a1c15}
.agent-log pre{white-space:pre-wrap;font-size:.875rem;background:#f3f5f7;padding:.5rem;border-radius:6px}
.proposal{border:1px solid #767d85;border-radius:8px;padding:.5rem .75rem;margin-top:.5rem}
.proposal .actions{display:flex;gap:.5rem}
@media (min-width:64rem){.console{grid-template-columns:minmax(0,1fr) 24rem}#map{height:calc(100vh - 12rem)}}
`;
