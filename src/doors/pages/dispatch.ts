import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PageSessions } from '../../modules/approvals/index.ts';
import type { Executor } from '../../platform/catalog/executor.ts';
import type { Caller } from '../../platform/catalog/operation.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { AppError, isAppError } from '../../platform/errors.ts';
import { html, SafeHtml } from '../../platform/html.ts';
import { errorBody } from '../../platform/http/errors.ts';
import { headerOf } from '../../platform/http/server.ts';
import { LANGUAGES } from '../../platform/i18n/index.ts';
import { CONSOLE_WORDS, type ConsoleKey } from '../../web/dispatch/texts/index.ts';
import { registerRestDoor } from '../rest/index.ts';
import { LANGUAGE_NAMES, languageLinks, sendPage } from './layout.ts';
import { type MapTiles, mapImageSources } from './map-assets.ts';
import {
  cookiesOf,
  type FormRefusal,
  PageSignIn,
  type PageView,
  pageCalls,
  pageView,
  signInForm,
} from './sign-in.ts';
import { webApp } from './web-apps.ts';

/**
 * The dispatcher's console: `/dispatch` signs a person in as the approval queue does
 * (./sign-in.ts), then serves the console's app (src/web/dispatch). The app calls the public API
 * at `/dispatch/api/...` (the REST door's operations and paths, under the page's own path), as
 * the person of the page's session: a write carries the session's anti-forgery token in
 * `X-CSRF-Token`. So the console can do nothing its person could not do through the API.
 */
const BASE = '/dispatch';
const COOKIE = 'tms_dispatch';
type View = PageView<ConsoleKey>;

export function registerDispatchPage(
  app: FastifyInstance,
  catalog: Catalog,
  executor: Executor,
  sessions: PageSessions,
  settings: { secureCookies: boolean; mapTiles: MapTiles; livePush: { topicPrefix: string } | null },
): void {
  const calls = pageCalls(catalog, executor);
  const me = calls.operation('get_me');
  const board = calls.operation('get_dispatch_board');
  const signIn = new PageSignIn(BASE, COOKIE, sessions, settings.secureCookies, calls);

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
        const shell = await webApp('dispatch');
        const data = {
          lang: view.lang,
          texts: CONSOLE_WORDS[view.lang],
          base: BASE,
          csrf: signIn.csrfOf(session.id),
          user: who.user,
          languages: LANGUAGES.map((lang) => ({ lang, name: LANGUAGE_NAMES[lang] })),
          tiles: settings.mapTiles ?? null,
          // Where the app hears chat messages live: the broker's topics under the page's own path.
          live: settings.livePush && { path: DISPATCH_MQTT_PATH, topicPrefix: settings.livePush.topicPrefix },
        };
        return page(reply, view, refusal?.status ?? 200, appBody(view, data), {
          assets: { stylesheets: shell.stylesheet ? [shell.stylesheet] : [], scripts: [shell.script] },
          imageSources: mapImageSources(settings.mapTiles),
        });
      } catch (error) {
        if (!isAppError(error)) throw error;
        await signIn.signOut(request, reply, view.lang, session);
        if (error.code !== 'UNAUTHENTICATED') notice = notice ?? errorBody(error, view.lang, '').message;
      }
    } else if (session) {
      signIn.forget(reply);
    }
    const csrf = signIn.issueSignInCsrf(reply);
    return page(reply, view, refusal?.status ?? 200, signInBody(view, csrf, notice));
  };

  const page = (
    reply: FastifyReply,
    view: View,
    status: number,
    body: SafeHtml,
    app?: { assets: { stylesheets: string[]; scripts: string[] }; imageSources: string[] },
  ) => {
    reply.header('cache-control', 'no-store');
    const footer = languageLinks(view.lang, view.text('language'), (lang) => `${BASE}?lang=${lang}`);
    return sendPage(reply, {
      status,
      lang: view.lang,
      title: view.text('title'),
      body,
      footer,
      css: CSS,
      ...app,
    });
  };

  app.get(BASE, (request, reply) => show(request, reply));
  signIn.registerForms(app, { viewOf, show });
}

/**
 * The public API under the console's path, as the person of its session: the same operations,
 * paths and answers as `/api`. A request without a live session is refused (401); one that may
 * change something must carry the session's anti-forgery token (403 without it), so another site
 * cannot make the browser write. Reads need none: the cookie is SameSite=Strict and answers are
 * not readable across origins.
 */
export async function registerDispatchApi(
  app: FastifyInstance,
  catalog: Catalog,
  executor: Executor,
  sessions: PageSessions,
  settings: { secureCookies: boolean },
): Promise<void> {
  const signIn = new PageSignIn(BASE, COOKIE, sessions, settings.secureCookies, pageCalls(catalog, executor));
  await registerRestDoor(app, catalog, executor, {
    prefix: `${BASE}/api`,
    callerOf: async (request) => {
      const session = await signIn.sessionOf(request);
      if (!session?.person) throw new AppError('UNAUTHENTICATED');
      if (
        !SAFE_METHODS.has(request.method) &&
        !signIn.csrfMatches(session.id, headerOf(request, 'x-csrf-token'))
      )
        throw new AppError('FORBIDDEN');
      return session.person;
    },
  });
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * The console's live pushes: MQTT over WebSocket at a path under the page's, so the browser sends
 * the session cookie with the upgrade and the session authenticates the connection (docs/chat.md,
 * "The dispatch console"): the page never holds a bearer token. The broker's rules then apply to
 * the session's person as to a token's.
 */
export const DISPATCH_MQTT_PATH = `${BASE}/mqtt`;

export function dispatchMqttSession(sessions: PageSessions) {
  return {
    path: DISPATCH_MQTT_PATH,
    /** The person of the upgrade's session; null without one, or from another site's page. */
    personOf: async (request: IncomingMessage): Promise<Caller | null> => {
      // WebSockets are not bound by the same-origin rule: only the page's own origin may open one
      // (the SameSite=Strict cookie already stays home; this holds should that ever change).
      const origin = request.headers.origin;
      if (origin !== undefined && !sameHost(origin, request.headers.host)) return null;
      const id = cookiesOf(request)[COOKIE];
      return id ? sessions.personOf(id) : null;
    },
  };
}

function sameHost(origin: string, host: string | undefined): boolean {
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

function viewOf(request: FastifyRequest): View {
  return pageView(request, CONSOLE_WORDS);
}

function signInBody(view: View, csrf: string, notice: string | undefined): SafeHtml {
  return html`<h1>${view.text('title')}</h1>
${notice ? html`<p class="notice alert" role="alert">${notice}</p>` : ''}
${signInForm(view.text, view.text('signInHint'), view.url(`${BASE}/sign-in`), csrf)}`;
}

/** The app's element and its data, never run: `<` escaped so no text in it can close the element. */
function appBody(view: View, data: Record<string, unknown>): SafeHtml {
  const json = JSON.stringify(data).replaceAll('<', '\\u003c');
  return html`<div id="app"><p class="meta">${view.text('loading')}</p></div>
<script type="application/json" id="app-data">${new SafeHtml(json)}</script>`;
}

const CSS = `
main{max-width:none}
.bar{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem}
.who{align-items:center;gap:.5rem}
.who p{margin:0}
button.secondary{background:#fff;color:#1a56a8;border:2px solid #1a56a8}
button.small{padding:.25rem .625rem;font-size:.875rem}
button.link{background:none;color:#1a56a8;padding:0;font-weight:600;text-align:left}
button:disabled{opacity:.55}
select,textarea{font:inherit;padding:.5rem;border:1px solid #767d85;border-radius:8px;background:#fff}
select:focus-visible,textarea:focus-visible{outline:3px solid #1b1e23;outline-offset:2px}
.filters{align-items:center;margin:.5rem 0}
.filters label{flex-basis:auto}
.filters input,.filters select{flex:0 1 12rem;font:inherit;padding:.5rem;border:1px solid #767d85;border-radius:8px;background:#fff}
.filters p{margin:0 0 0 auto}
.console{display:grid;grid-template-columns:minmax(0,1fr);gap:1rem}
#map{height:60vh;min-height:18rem;border-radius:12px;background:#e8eef2}
#map.picking,#map.picking .leaflet-interactive{cursor:crosshair}
.list{list-style:none;margin:0;padding:0}
.list>li{padding:.375rem 0;border-top:1px solid #e2e5e9;content-visibility:auto;contain-intrinsic-size:auto 2.5rem}
.list>li:first-child{border-top:0}
.route.selected{background:#eef3fb}
.route-head{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem .5rem}
.swatch{display:inline-block;width:1rem;height:1rem;border-radius:4px;border:1px solid #1b1e23}
.stops{margin:.25rem 0 0;padding-left:1.25rem}
.stops li{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem .5rem;padding:.125rem 0}
.waiting{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;cursor:grab}
.depot-marker{background:#1b1e23;border:3px solid #fff;border-radius:3px}
.driver-marker div{box-sizing:border-box;width:20px;height:20px;border:4px solid;border-radius:50%;background:#ffd166}
.notice{position:sticky;bottom:0;display:flex;gap:.75rem;align-items:center;background:#1b1e23;color:#fff;padding:.75rem 1rem;border-radius:8px;margin:1rem 0}
.notice button.secondary{background:#fff}
.notice.alert{background:#fbe4e2;color:#8a1c15;position:static}
.stack{flex-direction:column;flex-wrap:nowrap;align-items:stretch}
.stack label,.stack input,.stack textarea,.stack select{flex:0 0 auto}
.actions{display:flex;flex-wrap:wrap;gap:.5rem}
dialog{border:0;border-radius:12px;padding:1rem 1.25rem;max-width:min(32rem,calc(100vw - 2rem));box-shadow:0 8px 32px rgba(0,0,0,.3)}
dialog::backdrop{background:rgba(0,0,0,.4)}
.violations{padding-left:1.25rem}
.agent-log{list-style:none;margin:0 0 .75rem;padding:0;max-height:50vh;overflow-y:auto}
.agent-log .turn{padding:.5rem 0;border-top:1px solid #e2e5e9}
.agent-log .turn:first-child{border-top:0}
.agent-log .who{font-weight:600;margin:0}
.agent-log .refused{color:#8a1c15}
.agent-log pre{white-space:pre-wrap;font-size:.875rem;background:#f3f5f7;padding:.5rem;border-radius:6px}
.proposal{border:1px solid #767d85;border-radius:8px;padding:.5rem .75rem;margin-top:.5rem}
.chat{margin-top:.75rem;border-top:1px solid #e2e5e9;padding-top:.5rem}
.chat-log{list-style:none;margin:0 0 .5rem;padding:0;max-height:40vh;overflow-y:auto}
.chat-log li{padding:.25rem 0}
.chat-log .who{font-weight:600;margin:0}
.chat-log p{margin:0}
@media (min-width:64rem){.console{grid-template-columns:minmax(0,1fr) 26rem}#map{height:calc(100vh - 14rem)}.side{max-height:calc(100vh - 14rem);overflow-y:auto}}
`;
