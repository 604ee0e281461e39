import { LRUCache } from 'lru-cache';
import { type CacheInvalidation, TaggedCache } from '../cache/invalidation.ts';
import type { Language } from '../i18n/index.ts';
import type { Operation } from './operation.ts';

export interface KeptAnswer {
  answer: unknown;
  version: string | undefined;
}

/** What a kept answer is shaped by, besides the operation's valid input. */
export interface AnswerShape {
  lang: Language;
  representation: string | undefined;
}

/**
 * Anonymous answers of operations with `publicCache`, with their versions, kept until a write on
 * any instance invalidates their tags: neither the answer nor a 304 reaches the database.
 *
 * A door may also name a request in its own words (path, query, language, media type): once an
 * answer was kept for it, the same words find it again without reading or checking the input
 * (the hot public read: the words are a pure function of what the input is made from).
 */
export class KeptAnswers {
  // A timeline's answer with its JSON is some 15 kB in memory: 5,000 of them stay under 100 MB.
  private readonly answers: TaggedCache<KeptAnswer>;
  /** A door's words for a request, and the key and variant its answer was kept under. */
  private readonly requests = new LRUCache<string, { key: string; variant: string | null }>({
    max: 20_000,
  });

  constructor(invalidation: CacheInvalidation) {
    this.answers = new TaggedCache(invalidation, 5_000);
  }

  /** Where an answer of this call is kept, if it may be: an anonymous call of a `publicCache` operation. */
  keyOf(operation: Operation, input: unknown, shape: AnswerShape): string | undefined {
    const cache = operation.publicCache;
    if (!cache || !this.answers.usable || !operation.access.public || operation.kind !== 'query') {
      return undefined;
    }
    return JSON.stringify([
      operation.name,
      input,
      shape.lang,
      shape.representation ?? null,
      cache.variant?.() ?? null,
    ]);
  }

  get(key: string): KeptAnswer | undefined {
    return this.answers.get(key);
  }

  /** A mark to take before building what `keep` will keep. */
  mark(): number {
    return this.answers.mark();
  }

  keep(key: string, tags: readonly string[], answer: KeptAnswer, mark: number): void {
    this.answers.set(key, tags, answer, mark);
  }

  /** Remembers that a door's request, in its words, is answered by what is kept under `key`. */
  nameRequest(operation: Operation, words: string, key: string): void {
    this.requests.set(`${operation.name}\n${words}`, {
      key,
      variant: operation.publicCache?.variant?.() ?? null,
    });
  }

  /** The answer kept for a request named in these words before, while its variant holds. */
  forRequest(operation: Operation, words: string): KeptAnswer | undefined {
    const named = this.requests.get(`${operation.name}\n${words}`);
    if (!named || named.variant !== (operation.publicCache?.variant?.() ?? null)) return undefined;
    return this.answers.get(named.key);
  }
}
