import { createHash, randomBytes } from 'node:crypto';
import type { Caller } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import type { AccountsService } from '../accounts/index.ts';
import * as repo from './repository.ts';

/** A review session ends after this long without a request... */
export const REVIEW_SESSION_IDLE_HOURS = 8;
/** ...and this long after its sign-in, however busy: a working day. */
export const REVIEW_SESSION_MAX_HOURS = 12;

const HOUR_MS = 3_600_000;
/** 256 random bits, base64url: what the cookie holds. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/** The sessions of one database, for the page that keeps them in its cookie. */
export interface PageSessions {
  open(loginToken: string): Promise<string | undefined>;
  personOf(sessionId: string): Promise<Caller | null>;
  close(sessionId: string): Promise<void>;
}

/**
 * The approvals page's own sessions. A review page is for people: a session is opened only over a
 * person's sign-in with email and password (the login token the `login` operation answered, which
 * stays on the server and is what the page's calls run as), the browser holds only an opaque id
 * stored here as its SHA-256 digest, and a session ends when idle, at its absolute expiry, at
 * sign-out, or with its login token. No bearer token, an agent's least of all, opens the page.
 */
export class ReviewSessions {
  constructor(
    private readonly clock: Clock,
    private readonly accounts: AccountsService,
  ) {}

  /**
   * Opens a session over a person's sign-in; answers its id, or undefined when the token is not
   * a live login token of a person.
   */
  async open(db: Queryable, loginToken: string): Promise<string | undefined> {
    const now = this.clock.now();
    const person = await this.accounts.signedInPerson(db, { token: loginToken }, now);
    if (!person || person.agent) return undefined;
    const sessionId = randomBytes(32).toString('base64url');
    await repo.insertSession(db, {
      session_hash: digestOf(sessionId),
      user_id: person.userId,
      token_id: person.tokenId,
      created_at: now,
      last_used_at: now,
      expires_at: new Date(now.getTime() + REVIEW_SESSION_MAX_HOURS * HOUR_MS),
      revoked_at: null,
    });
    return sessionId;
  }

  /** The person a live session acts as (its sign-in's caller), or null; a use keeps it from idling out. */
  async personOf(db: Queryable, sessionId: string): Promise<Caller | null> {
    if (!SESSION_ID.test(sessionId)) return null;
    const now = this.clock.now();
    const session = await repo.liveSession(db, digestOf(sessionId), this.limits(now));
    if (!session) return null;
    const person = await this.accounts.signedInPerson(db, { tokenId: session.token_id }, now);
    if (!person || person.agent || person.userId !== session.user_id) return null;
    await repo.touchSession(db, session.id, now);
    return person;
  }

  /** Ends a session (sign-out): its id opens nothing any more. */
  async close(db: Queryable, sessionId: string): Promise<void> {
    if (!SESSION_ID.test(sessionId)) return;
    await repo.revokeSession(db, digestOf(sessionId), this.clock.now());
  }

  /** Deletes the sessions that can no longer open the page (hourly); answers how many. */
  prune(db: Queryable): Promise<number> {
    return repo.pruneSessions(db, this.limits(this.clock.now()));
  }

  /** These sessions bound to one database, as the page uses them. */
  on(db: Queryable): PageSessions {
    return {
      open: (loginToken) => this.open(db, loginToken),
      personOf: (sessionId) => this.personOf(db, sessionId),
      close: (sessionId) => this.close(db, sessionId),
    };
  }

  private limits(now: Date) {
    return { now, idleBefore: new Date(now.getTime() - REVIEW_SESSION_IDLE_HOURS * HOUR_MS) };
  }
}

function digestOf(sessionId: string): Buffer {
  return createHash('sha256').update(sessionId, 'utf8').digest();
}
