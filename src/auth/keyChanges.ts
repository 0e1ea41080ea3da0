// How changes of keys and accounts reach every replica's remembered keys: the database announces
// each change on a notification channel, whoever writes it (this service, or the back office in
// SQL; migration key_change_notifications), and every app listening forgets what it changes.
// An app that is not listening (connection lost) trusts what it remembers for 1 s only, and
// forgets everything once it listens again, since it may have missed announcements meanwhile.
import { config } from '../platform/config';
import { listenToDatabase } from '../platform/db';
import type { KeyCache, KeyRow } from './keyCache';

const CHANNEL = 'api_key_changes';

/** Keeps `remembered` in step with the announced changes; returns how to stop. */
export function hearKeyChanges(remembered: KeyCache<KeyRow>): () => void {
  return listenToDatabase(CHANNEL, {
    onMessage: (payload) => forgetAnnounced(remembered, payload),
    onListening: (heard) => {
      // Announcements made while not listening are lost: forget what they could have changed.
      if (heard) remembered.forgetAll();
      remembered.hearsChanges = heard;
    },
  });
}

/** `<schema> key <id>` or `<schema> owner <id>`; other schemas' announcements are not ours. */
function forgetAnnounced(remembered: KeyCache<KeyRow>, payload: string): void {
  const [schema, kind, id] = payload.split(' ');
  if (schema !== config.databaseSchema || !id) return;
  if (kind === 'key') remembered.forgetKey(id);
  else if (kind === 'owner') remembered.forgetOwner(id);
}
