import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PageSessions } from '../../modules/approvals/index.ts';
import type { Executor } from '../../platform/catalog/executor.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { isAppError } from '../../platform/errors.ts';
import { html, SafeHtml } from '../../platform/html.ts';
import { errorBody } from '../../platform/http/errors.ts';
import { languageLinks, sendPage } from './layout.ts';
import { type MapTiles, mapImageSources } from './map-assets.ts';
import { MAPS_TEXTS, type MapsTextKey } from './maps-texts.ts';
import {
  type FormRefusal,
  PageSignIn,
  type PageView,
  pageCalls,
  pageView,
  signedInBar,
  signInForm,
} from './sign-in.ts';
import { type WebApp, webApp } from './web-apps.ts';

/**
 * Custom maps for people. `/maps/{link id}` is a published map: anyone may open it, and the sites
 * its business named may frame it (CSP `frame-ancestors`); it shows what `get_public_map` answers,
 * which names nobody. `/maps` lists the business's maps for its staff, signed in as on the
 * approval queue (./sign-in.ts), and `/maps/{id}/view` draws one of them in full (`get_map`).
 * The map itself is drawn by the maps app (src/web/maps) from the page's own JSON block: no
 * further request.
 */
const BASE = '/maps';

type View = PageView<MapsTextKey>;

/** What a map page draws: a name, a style, layers of GeoJSON. */
interface Drawable {
  map: { name: string; style: { labels: boolean; clustering: boolean } };
  layers: Array<{ key: string; name: string; colour: string; truncated: boolean; geojson: unknown }>;
}

interface MapSummary {
  id: number;
  name: string;
  visibility: 'authenticated' | 'public';
  layers: Array<{ name: string }>;
}

export function registerMapsPages(
  app: FastifyInstance,
  catalog: Catalog,
  executor: Executor,
  sessions: PageSessions,
  settings: { secureCookies: boolean; mapTiles: MapTiles },
): void {
  const calls = pageCalls(catalog, executor);
  const me = calls.operation('get_me');
  const list = calls.operation('list_maps');
  const one = calls.operation('get_map');
  const published = calls.operation('get_public_map');
  const signIn = new PageSignIn(BASE, 'tms_maps', sessions, settings.secureCookies, calls);

  const page = (
    reply: FastifyReply,
    view: View,
    content: {
      status: number;
      title: string;
      body: SafeHtml;
      /** The maps app, on a page that draws a map. */
      map?: WebApp;
      frameAncestors?: readonly string[];
    },
  ) => {
    reply.header('cache-control', 'no-store');
    const footer = languageLinks(view.lang, view.text('language'), (lang) => `${view.path}?lang=${lang}`);
    return sendPage(reply, {
      status: content.status,
      lang: view.lang,
      title: content.title,
      body: content.body,
      footer,
      css: CSS,
      ...(content.map
        ? {
            assets: {
              stylesheets: content.map.stylesheet ? [content.map.stylesheet] : [],
              scripts: [content.map.script],
            },
            imageSources: mapImageSources(settings.mapTiles),
          }
        : {}),
      ...(content.frameAncestors ? { frameAncestors: content.frameAncestors } : {}),
    });
  };

  /** A map drawn, with its legend; `back` links to the list for staff. */
  const mapPage = async (
    reply: FastifyReply,
    view: View,
    drawable: Drawable,
    options: { back: boolean; frameAncestors?: readonly string[] },
  ) =>
    page(reply, view, {
      status: 200,
      title: drawable.map.name,
      map: await webApp('maps'),
      ...(options.frameAncestors ? { frameAncestors: options.frameAncestors } : {}),
      body: html`${options.back ? html`<p><a href="${view.url(BASE)}">${view.text('back')}</a></p>` : ''}
<h1>${drawable.map.name}</h1>
<div id="map" role="region" aria-label="${view.text('mapOf').replace('{name}', drawable.map.name)}"></div>
<section class="card legend" aria-labelledby="legend-heading">
<h2 id="legend-heading">${view.text('layers')}</h2>
<ul>${drawable.layers.map(
        (layer) =>
          html`<li><svg width="14" height="14" aria-hidden="true" focusable="false"><circle cx="7" cy="7" r="7" fill="${layer.colour}"/></svg> ${layer.name}${
            layer.truncated ? html` <span class="meta">(${view.text('truncated')})</span>` : ''
          }</li>`,
      )}</ul>
</section>
<script type="application/json" id="map-data">${mapData(view, drawable, settings.mapTiles)}</script>`,
    });

  const show = async (request: FastifyRequest, reply: FastifyReply, refusal?: FormRefusal) => {
    const view = viewOf(request);
    let notice = refusal?.message;
    const status = refusal?.status ?? 200;
    const session = await signIn.sessionOf(request);
    if (session?.person) {
      try {
        const [who, maps] = await Promise.all([
          calls.run(request, view.lang, me, {}, session.person) as Promise<{
            user: { name: string; email: string };
          }>,
          calls.run(request, view.lang, list, { page: 1, per_page: 100 }, session.person) as Promise<{
            maps: MapSummary[];
          }>,
        ]);
        return page(reply, view, {
          status,
          title: view.text('title'),
          body: listBody(view, who.user, maps.maps, signIn.csrfOf(session.id)),
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
    return page(reply, view, {
      status,
      title: view.text('title'),
      body: html`<h1>${view.text('title')}</h1>
${notice ? html`<p class="notice alert" role="alert">${notice}</p>` : ''}
${signInForm(view.text, view.text('signInHint'), view.url(`${BASE}/sign-in`), csrf)}`,
    });
  };

  /** A map that is not there, or not for this caller: 404, in words. */
  const missing = (reply: FastifyReply, view: View, error: unknown) => {
    if (!isAppError(error)) throw error;
    return page(reply, view, {
      status: error.status,
      title: view.text('notFoundTitle'),
      body: html`<h1>${view.text('notFoundTitle')}</h1>
<p class="notice alert" role="alert">${errorBody(error, view.lang, '').message}</p>`,
    });
  };

  app.get(BASE, (request, reply) => show(request, reply));
  app.get<{ Params: { mapId: string } }>(`${BASE}/:mapId/view`, async (request, reply) => {
    const view = viewOf(request);
    const session = await signIn.sessionOf(request);
    if (!session?.person) return reply.redirect(view.url(BASE), 303);
    try {
      const drawable = (await calls.run(
        request,
        view.lang,
        one,
        { map_id: Number(request.params.mapId) },
        session.person,
      )) as Drawable;
      return mapPage(reply, view, drawable, { back: true });
    } catch (error) {
      return missing(reply, view, error);
    }
  });
  app.get<{ Params: { linkId: string } }>(`${BASE}/:linkId`, async (request, reply) => {
    const view = viewOf(request);
    try {
      const drawable = (await calls.run(request, view.lang, published, {
        link_id: request.params.linkId,
      })) as Drawable & {
        frame_ancestors: string[];
      };
      return mapPage(reply, view, drawable, { back: false, frameAncestors: drawable.frame_ancestors });
    } catch (error) {
      return missing(reply, view, error);
    }
  });

  signIn.registerForms(app, { viewOf, show });
}

function viewOf(request: FastifyRequest): View {
  return pageView(request, MAPS_TEXTS);
}

function listBody(
  view: View,
  who: { name: string; email: string },
  maps: MapSummary[],
  csrf: string,
): SafeHtml {
  const items = maps.map(
    (map) => html`<li><a href="${view.url(`${BASE}/${map.id}/view`)}">${map.name}</a>
<span class="meta">${view.text(map.visibility === 'public' ? 'public' : 'staffOnly')} · ${map.layers.map((layer) => layer.name).join(', ')}</span></li>`,
  );
  return html`<h1>${view.text('title')}</h1>
${signedInBar(view.text, who, view.url(`${BASE}/sign-out`), csrf)}
<section class="card" aria-labelledby="maps-heading">
<h2 id="maps-heading">${view.text('yourMaps')}</h2>
${maps.length === 0 ? html`<p>${view.text('noMaps')}</p>` : html`<ul class="maps">${items}</ul>`}
</section>`;
}

/** The data the script draws, in a JSON block: never run, and `<` escaped so nothing in it can end the block. */
function mapData(
  view: View,
  drawable: Drawable,
  tiles: { url: string; attribution: string } | undefined,
): SafeHtml {
  const data = {
    lang: view.lang,
    tiles: tiles ?? null,
    style: drawable.map.style,
    layers: drawable.layers.map(({ key, colour, geojson }) => ({ key, colour, geojson })),
  };
  return new SafeHtml(JSON.stringify(data).replaceAll('<', '\\u003c'));
}

const CSS = `
main{max-width:none}
#map{height:70vh;min-height:18rem;border-radius:12px;background:#e8eef2;margin:0 0 1rem}
.legend ul,.maps{list-style:none;margin:0;padding:0}
.legend li,.maps li{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;padding:.25rem 0}
.who{align-items:center;justify-content:space-between;margin:0 0 1rem}
.who p{margin:0}
button.secondary{background:#fff;color:#1a56a8;border:2px solid #1a56a8}
.notice{padding:.75rem 1rem;border-radius:8px;margin:0 0 1rem;font-weight:600}
.notice.alert{background:#fbe4e2;color:#8a1c15}
.stack{flex-direction:column;flex-wrap:nowrap;align-items:stretch}
.stack label,.stack input{flex:0 0 auto}
`;
