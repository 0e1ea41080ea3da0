// Stored keys remembered for a while, so that a busy client's requests do not each read its key
// from the database. Only keys presented with their correct secret are remembered, under the
// presented key itself (prefix and secret hash), so guessing fills nothing and a wrong secret
// never hits. What is remembered is the row, not the verdict: expiry, grace periods and
// revocation are judged against the clock on every request.
//
// Rotation and revocation must reach every replica within 1 s (decisions.md): the replica that
// changes a key forgets it at once and announces the change to the others over Redis
// (src/auth/keyChanges.ts). Remembered rows are trusted for a minute while every replica is known
// to hear those announcements (Redis subscribed, or no Redis: a single replica), and for 1 s
// otherwise.

/** How long a remembered key is trusted while changes are heard, and while they may not be. */
export const TRUSTED_FOR_MS = 60_000;
export const TRUSTED_UNHEARD_FOR_MS = 1_000;

export interface KeyCacheSettings {
  maxEntries: number;
  /** Whether key changes made by other replicas are heard right now. */
  hearsChanges: () => boolean;
}

interface Entry<Row> {
  row: Row;
  keyId: string;
  rememberedAt: number;
}

export class KeyCache<Row> {
  private readonly entries = new Map<string, Entry<Row>>();

  constructor(private readonly settings: KeyCacheSettings) {}

  get(presented: string, nowMs = Date.now()): Row | undefined {
    const entry = this.entries.get(presented);
    if (!entry) return undefined;
    const trustedFor = this.settings.hearsChanges() ? TRUSTED_FOR_MS : TRUSTED_UNHEARD_FOR_MS;
    if (nowMs - entry.rememberedAt < trustedFor) return entry.row;
    this.entries.delete(presented);
    return undefined;
  }

  remember(presented: string, keyId: string, row: Row, nowMs = Date.now()): void {
    // Oldest first out: a Map iterates in insertion order.
    if (this.entries.size >= this.settings.maxEntries && !this.entries.has(presented)) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.delete(presented);
    this.entries.set(presented, { row, keyId, rememberedAt: nowMs });
  }

  /** Forgets every remembered presentation of a key (any of its secrets). */
  forgetKey(keyId: string): void {
    for (const [presented, entry] of this.entries) {
      if (entry.keyId === keyId) this.entries.delete(presented);
    }
  }

  forgetAll(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
