// How changes of keys and accounts reach every replica's remembered keys: the database announces
// each change on a notification channel, whoever writes it (this service, or the back office in
// SQL; migration key_change_notifications), and every replica listening forgets what it changes.
// A replica that is not listening (connection lost) trusts what it remembers for 1 s only, and
// forgets everything once it listens again, since it may have missed announcements meanwhile.
import { config } from '../platform/config';
import { listenToDatabase } from '../platform/db';
import { rememberedKeys } from './verifyApiKey';

const CHANNEL = 'api_key_changes';

let listening = false;

/** Starts listening to key and account changes (once per process). */
export function hearKeyChanges(): void {
  if (listening) return;
  listening = true;
  listenToDatabase(CHANNEL, {
    onMessage: forgetAnnounced,
    onListening: (heard) => {
      // Announcements made while not listening are lost: forget what they could have changed.
      if (heard) rememberedKeys.forgetAll();
      rememberedKeys.hearsChanges = heard;
    },
  });
}

/** `<schema> key <id>` or `<schema> owner <id>`; other schemas' announcements are not ours. */
function forgetAnnounced(payload: string): void {
  const [schema, kind, id] = payload.split(' ');
  if (schema !== config.databaseSchema || !id) return;
  if (kind === 'key') rememberedKeys.forgetKey(id);
  else if (kind === 'owner') rememberedKeys.forgetOwner(id);
}

/** Forgets a key this replica just changed, without waiting for the announcement. */
export function forgetChangedKey(keyId: string): void {
  rememberedKeys.forgetKey(keyId);
}
