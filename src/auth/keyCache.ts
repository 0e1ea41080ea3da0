// Stored keys remembered for a while, so that a busy client's requests do not each read its key
// from the database. Only keys presented with their correct secret are remembered, under the
// presented key itself (prefix and secret hash), so guessing fills nothing and a wrong secret
// never hits. What is remembered is the row, not the verdict: expiry, grace periods and
// revocation are judged against the clock on every request.
//
// Every change of a key or of its owner must reach every replica within 1 s: the database
// announces each one (src/auth/keyChanges.ts) and every replica forgets what it changes.
// Remembered rows are trusted for a minute while the announcements are heard, and for 1 s while
// they may not be (the connection that hears them is down).

/** How long a remembered key is trusted while changes are heard, and while they may not be. */
export const TRUSTED_FOR_MS = 60_000;
export const TRUSTED_UNHEARD_FOR_MS = 1_000;

/** What the cache needs of a remembered row: whose key it is. */
export interface KeyRow {
  id: string;
  ownerId: string;
}

interface Entry<Row> {
  row: Row;
  rememberedAt: number;
}

export class KeyCache<Row extends KeyRow> {
  private readonly entries = new Map<string, Entry<Row>>();
  /** Whether changes made elsewhere are heard right now (src/auth/keyChanges.ts sets it). */
  hearsChanges = false;

  constructor(private readonly maxEntries: number) {}

  get(presented: string, nowMs = Date.now()): Row | undefined {
    const entry = this.entries.get(presented);
    if (!entry) return undefined;
    const trustedFor = this.hearsChanges ? TRUSTED_FOR_MS : TRUSTED_UNHEARD_FOR_MS;
    if (nowMs - entry.rememberedAt < trustedFor) return entry.row;
    this.entries.delete(presented);
    return undefined;
  }

  remember(presented: string, row: Row, nowMs = Date.now()): void {
    // Oldest first out: a Map iterates in insertion order.
    if (this.entries.size >= this.maxEntries && !this.entries.has(presented)) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.delete(presented);
    this.entries.set(presented, { row, rememberedAt: nowMs });
  }

  /** Forgets every remembered presentation of a key (any of its secrets). */
  forgetKey(keyId: string): void {
    this.forgetWhere((row) => row.id === keyId);
  }

  /** Forgets every key of an account. */
  forgetOwner(ownerId: string): void {
    this.forgetWhere((row) => row.ownerId === ownerId);
  }

  forgetAll(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private forgetWhere(matches: (row: Row) => boolean): void {
    for (const [presented, entry] of this.entries) {
      if (matches(entry.row)) this.entries.delete(presented);
    }
  }
}
