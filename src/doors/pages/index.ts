import type { FastifyInstance } from 'fastify';
import type { PageSessions } from '../../modules/approvals/index.ts';
import type { Executor } from '../../platform/catalog/executor.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { registerApprovalsPage } from './approvals.ts';
import { registerBookingPage } from './book.ts';
import { registerBookingManagePage } from './booking.ts';
import { registerDispatchApi, registerDispatchPage } from './dispatch.ts';
import type { MapTiles } from './map-assets.ts';
import { registerMapsPages } from './maps.ts';
import { registerOtepGuide } from './otep-guide.ts';
import { registerTrackingPage } from './track.ts';
import { registerWebAssets } from './web-apps.ts';

/** What the pages take from the composition root. */
export interface PagesSetup {
  catalog: Catalog;
  executor: Executor;
  /** The sign-in sessions of the pages people sign in to. */
  sessions: PageSessions;
  publicBaseUrl: string;
  mapTiles: MapTiles;
  /** The embedded broker's topics, for the dispatch console's live chat; null with an external broker. */
  livePush: { topicPrefix: string } | null;
}

/**
 * Registers every page of the service, in a scope of their own, and answers the address (route
 * pattern) of each GET route they registered: the pages and what pages load (scripts, JSON reads,
 * streams). The list is how a test opens every page, a page added later included.
 */
export async function registerPages(http: FastifyInstance, setup: PagesSetup): Promise<readonly string[]> {
  const { catalog, executor, sessions } = setup;
  const addresses: string[] = [];
  const settings = {
    secureCookies: setup.publicBaseUrl.startsWith('https:'),
    mapTiles: setup.mapTiles,
    livePush: setup.livePush,
  };
  await http.register(async (pages) => {
    pages.addHook('onRoute', (route) => {
      if ([route.method].flat().includes('GET')) addresses.push(route.url);
    });
    registerTrackingPage(pages, catalog, executor);
    registerBookingPage(pages, catalog, executor);
    registerBookingManagePage(pages, catalog, executor);
    registerApprovalsPage(pages, catalog, executor, sessions, settings);
    registerWebAssets(pages);
    registerDispatchPage(pages, catalog, executor, sessions, settings);
    registerMapsPages(pages, catalog, executor, sessions, settings);
    registerOtepGuide(pages, setup.publicBaseUrl);
  });
  // The screens' API mounts are the REST door again, not pages: outside the pages' list.
  await http.register(async (apis) => registerDispatchApi(apis, catalog, executor, sessions, settings));
  return addresses;
}
