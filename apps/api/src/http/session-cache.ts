// Sessions kept in memory between requests (SESSION_CACHE), so that a signed-in request does not wait for a session
// lookup: on the scan and patient lists at a million scans that lookup was a fifth of each request's cost (a round
// trip, a statement, its rows in Node). Revocation stays immediate (architecture §5):
// - every instance LISTENs for sc_auth_changed, which migration 0019's triggers send when a transaction that revokes,
//   re-dates or deletes sessions, or changes a user's type, organization, e-mail or validity, commits; any
//   notification empties the cache;
// - the instance that handled a request that may write (any method but GET, HEAD, OPTIONS) empties its own cache
//   before answering, so its client's next request never meets what that request changed, however late the
//   notification;
// - while the listener is not known to be live (starting, reconnecting, a ping unanswered) nothing is cached or read;
// - a lookup that started before the cache was emptied is not stored (the generation changed meanwhile);
// - an entry is read again from the database after MAX_AGE_MS, and whenever the cached copy says the session is not
//   usable (another instance may have seen it more recently than this copy says).
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { SessionWithUser } from '../modules/auth/sessions.queries.ts';

export const SESSION_CACHE_MAX_ENTRIES = 10_000;
export const SESSION_CACHE_MAX_AGE_MS = 30_000;

/** Whether an app on a database of `kind` keeps sessions in memory (config.sessionCache: 'postgres' is `auto`). */
export const sessionCacheOn = (setting: Config['sessionCache'], kind: Database['kind']): boolean =>
  setting === true || (setting === 'postgres' && kind === 'postgres');

export class SessionCache {
  private readonly entries = new Map<string, { session: SessionWithUser; storedAt: number }>();
  private live = false;
  /** Bumped whenever the cache is emptied: a lookup stores its result only if it did not change meanwhile. */
  private gen = 0;

  constructor(
    private readonly clock: () => number = () => performance.now(),
    private readonly maxEntries = SESSION_CACHE_MAX_ENTRIES,
    private readonly maxAgeMs = SESSION_CACHE_MAX_AGE_MS,
  ) {}

  get isLive(): boolean {
    return this.live;
  }

  get size(): number {
    return this.entries.size;
  }

  get generation(): number {
    return this.gen;
  }

  /** The listener is (or is no longer) sure to hear every change: either way, what is kept may be stale. */
  setLive(live: boolean): void {
    this.live = live;
    this.clear();
  }

  clear(): void {
    this.gen++;
    this.entries.clear();
  }

  /** The session of a token hash, when kept and fresh enough. */
  get(tokenHash: string): SessionWithUser | undefined {
    if (!this.live) return undefined;
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (this.clock() - entry.storedAt > this.maxAgeMs) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry.session;
  }

  /** Keeps a session read from the database by a lookup that began at `generation`. */
  set(tokenHash: string, session: SessionWithUser, generation: number): void {
    if (!this.live || generation !== this.gen) return;
    this.entries.delete(tokenHash);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(tokenHash, { session, storedAt: this.clock() });
  }
}
