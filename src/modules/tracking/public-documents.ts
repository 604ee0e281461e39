import { TaggedCache } from '../../platform/cache/invalidation.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { shareJson } from '../../platform/json.ts';
import { FORMATS } from './projections/registry.ts';
import { publicView } from './public-view.ts';
import type { EventPage } from './repository.ts';
import { type TrackingService, trackingTag } from './service.ts';

/** One timeline's public document in one format: a page of its events, and how many it has in all. */
export interface PublicDocument {
  data: unknown;
  totalEvents: number;
}

/**
 * The public documents of many timelines at once (the batch read), each kept in memory by number,
 * format and page until an event of that number is stored on any instance: a batch of hot numbers
 * reaches no database, and only the numbers not kept are read, in one go. Only the public view is
 * kept, never a timeline as its business or an ally sees it.
 */
export class PublicDocuments {
  private readonly kept: TaggedCache<PublicDocument> | undefined;

  constructor(private readonly tracking: TrackingService) {
    const invalidation = tracking.cacheInvalidation;
    // Some 15 kB each with their JSON: 5,000 stay under 100 MB.
    this.kept = invalidation && new TaggedCache<PublicDocument>(invalidation, 5_000);
  }

  /** The documents of the known numbers among these, by number; unknown numbers are absent. */
  async of(
    db: Queryable,
    numbers: readonly string[],
    format: string,
    page: EventPage,
  ): Promise<Map<string, PublicDocument>> {
    const keyOf = (number: string) => JSON.stringify([number, format, page.page, page.perPage]);
    const found = new Map<string, PublicDocument>();
    const missing: string[] = [];
    for (const number of new Set(numbers)) {
      const kept = this.kept?.get(keyOf(number));
      if (kept) found.set(number, kept);
      else missing.push(number);
    }
    if (missing.length === 0) return found;
    const mark = this.kept?.mark() ?? 0;
    const project = FORMATS[format]!.project;
    for (const [number, read] of await this.tracking.timelines(db, missing, page)) {
      const document = {
        // Never changed once made, and sent in many batches: its JSON is written once.
        data: shareJson(project(publicView(read.timeline), { baseUrl: this.tracking.baseUrl })),
        totalEvents: read.totalEvents,
      };
      found.set(number, document);
      this.kept?.set(keyOf(number), [trackingTag(number)], document, mark);
    }
    return found;
  }
}
