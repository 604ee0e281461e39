import { sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import type pg from 'pg';
import { ChannelListener } from '../db/channel.ts';
import type { Queryable } from '../db/database.ts';

/** The channel every instance listens on; a NOTIFY in a writing transaction fires only if it commits. */
const CHANNEL = 'tms_cache';
/** PostgreSQL refuses NOTIFY payloads of 8,000 bytes or more: tags go in chunks below that. */
const PAYLOAD_BYTES = 7_000;
/** Tags whose last invalidation is remembered; an older one counts as invalidated at the floor. */
const REMEMBERED_TAGS = 100_000;

type Subscriber = (tags: readonly string[] | 'all') => void;

/**
 * Tells in-memory caches, on every instance sharing the database, that what they keep under some
 * tags (`tracking:TMS123`) changed: a writer calls `invalidate` in its transaction, which forgets
 * the tags here at once and, once the transaction commits, on every other instance through
 * PostgreSQL LISTEN/NOTIFY (as the outbox wakes its workers).
 *
 * A cache keeps nothing while this instance is not listening (not started, or the connection was
 * lost: everything kept is dropped then, since notifications may have been missed). A read that
 * started before an invalidation of its tags is not kept either (`mark` / `unchangedSince`), so an
 * answer read before a commit never outlives the notification of that commit.
 */
export class CacheInvalidation {
  private sequence = 0;
  /** The sequence number of each recently invalidated tag. */
  private readonly invalidated = new LRUCache<string, number>({
    max: REMEMBERED_TAGS,
    dispose: (sequence, _tag, reason) => {
      if (reason === 'evict') this.floor = Math.max(this.floor, sequence);
    },
  });
  /** Tags no longer remembered count as invalidated at this sequence number. */
  private floor = 0;
  private readonly subscribers = new Set<Subscriber>();
  /** How far behind a read may be (a read replica's lag bound): 0, reads see every commit. */
  private staleReadsMs = 0;
  /** Invalidations of the last `staleReadsMs`, oldest first, from `head` on. */
  private readonly recent: { at: number; sequence: number }[] = [];
  private head = 0;
  /**
   * Each (re)start of listening drops everything kept: what was said while nobody listened is
   * unknown (and while not listening, nothing is answered from or put in a cache).
   */
  private readonly listener = new ChannelListener(
    CHANNEL,
    (payload) => this.forget(payload.split('\n')),
    () => this.dropAll(),
  );

  /** Whether caches may keep answers: this instance hears every invalidation. */
  get listening(): boolean {
    return this.listener.listening;
  }

  subscribe(subscriber: Subscriber): void {
    this.subscribers.add(subscriber);
  }

  /**
   * Reads may come from a copy up to `ms` behind the primary (a read replica): a mark then dates
   * from that long ago, so what a read from the copy may have missed is never kept.
   */
  toleratesStaleReads(ms: number): void {
    this.staleReadsMs = Math.max(this.staleReadsMs, ms);
  }

  /** A mark to take before reading what a cache will keep. */
  mark(): number {
    if (this.staleReadsMs === 0) return this.sequence;
    this.pruneRecent();
    const oldest = this.recent[this.head];
    return oldest ? oldest.sequence - 1 : this.sequence;
  }

  /** Whether none of these tags was invalidated since `mark`, this instance listening all along. */
  unchangedSince(mark: number, tags: readonly string[]): boolean {
    if (!this.listening) return false;
    return tags.every((tag) => (this.invalidated.peek(tag) ?? this.floor) <= mark);
  }

  /**
   * In the writer's transaction: forgets the tags on this instance now, and on every instance when
   * the transaction commits (one statement, however many tags).
   */
  async invalidate(db: Queryable, tags: readonly string[]): Promise<void> {
    if (tags.length === 0) return;
    this.forget(tags);
    await sql`SELECT pg_notify(${CHANNEL}, chunk) FROM unnest(${payloads(tags)}::text[]) AS chunk`.execute(
      db,
    );
  }

  /** Starts listening on a connection of its own from the pool. */
  async start(pool: pg.Pool): Promise<void> {
    await this.listener.start(pool);
  }

  /** Stops listening, releases the connection, and drops what the caches keep. */
  async stop(): Promise<void> {
    await this.listener.stop();
    this.dropAll();
  }

  private forget(tags: readonly string[]): void {
    const sequence = ++this.sequence;
    this.remember(sequence);
    for (const tag of tags) this.invalidated.set(tag, sequence);
    for (const subscriber of this.subscribers) subscriber(tags);
  }

  private dropAll(): void {
    this.floor = ++this.sequence;
    this.remember(this.floor);
    this.invalidated.clear();
    for (const subscriber of this.subscribers) subscriber('all');
  }

  private remember(sequence: number): void {
    if (this.staleReadsMs === 0) return;
    this.recent.push({ at: performance.now(), sequence });
    this.pruneRecent();
  }

  private pruneRecent(): void {
    const since = performance.now() - this.staleReadsMs;
    while (this.head < this.recent.length && this.recent[this.head]!.at < since) this.head++;
    // Compacted once half is spent: pruning stays cheap however many invalidations come.
    if (this.head > this.recent.length / 2) {
      this.recent.splice(0, this.head);
      this.head = 0;
    }
  }
}

/** Tags joined by newlines into payloads NOTIFY accepts. */
function payloads(tags: readonly string[]): string[] {
  const chunks: string[] = [];
  let chunk = '';
  for (const tag of new Set(tags)) {
    if (chunk && Buffer.byteLength(chunk) + Buffer.byteLength(tag) + 1 > PAYLOAD_BYTES) {
      chunks.push(chunk);
      chunk = '';
    }
    chunk = chunk ? `${chunk}\n${tag}` : tag;
  }
  if (chunk) chunks.push(chunk);
  return chunks;
}

/**
 * Values kept in memory under tags, until a write anywhere invalidates one of them (see
 * CacheInvalidation), and at most `max` of them (least recently used dropped first).
 */
export class TaggedCache<V extends object> {
  private readonly entries: LRUCache<string, { value: V; tags: readonly string[] }>;
  private readonly keysByTag = new Map<string, Set<string>>();

  constructor(
    private readonly invalidation: CacheInvalidation,
    max: number,
  ) {
    this.entries = new LRUCache({ max, dispose: (entry, key) => this.unindex(key, entry.tags) });
    invalidation.subscribe((tags) => {
      if (tags === 'all') {
        this.entries.clear();
        return;
      }
      for (const tag of tags)
        for (const key of [...(this.keysByTag.get(tag) ?? [])]) this.entries.delete(key);
    });
  }

  /** Whether the cache keeps anything now (its instance hears every invalidation). */
  get usable(): boolean {
    return this.invalidation.listening;
  }

  get(key: string): V | undefined {
    return this.usable ? this.entries.get(key)?.value : undefined;
  }

  /** A mark to take before reading what `set` will keep. */
  mark(): number {
    return this.invalidation.mark();
  }

  /** Keeps the value, unless one of its tags was invalidated since `mark` (it may be stale). */
  set(key: string, tags: readonly string[], value: V, mark: number): void {
    if (!this.invalidation.unchangedSince(mark, tags)) return;
    this.entries.set(key, { value, tags });
    for (const tag of tags) {
      const keys = this.keysByTag.get(tag) ?? new Set<string>();
      keys.add(key);
      this.keysByTag.set(tag, keys);
    }
  }

  private unindex(key: string, tags: readonly string[]): void {
    for (const tag of tags) {
      const keys = this.keysByTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.keysByTag.delete(tag);
    }
  }
}
