// An issued secret (a full API key, a webhook signing secret), sealed for the Idempotency-Key
// replay of the mutations that issue one (src/modules/secrets/issuance.ts). Replaying "the
// same answer" means keeping the secret for 24 h; it is kept encrypted (AES-256-GCM) under a key
// derived (HKDF-SHA256) from the server secret and bound to the replay's scope and
// Idempotency-Key, so a copy of the database alone does not reveal it, and one user's sealed
// answer cannot be opened as another's.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { config } from '../../platform/config';

const FORMAT = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
// Domain separation: the derived keys are useless as (and reveal nothing of) the JWT secret. Named
// for API keys, the first secrets sealed; another name would leave stored answers unopenable.
const SALT = 'affiliate-api/api-key-replay/v1';

function sealingKey(serverSecret: string, binding: string): Buffer {
  return Buffer.from(hkdfSync('sha256', serverSecret, SALT, binding, 32));
}

/** `v1.<iv>.<tag>.<ciphertext>` (base64url); `binding` names whose replay this is. */
export function sealSecret(
  secret: string,
  binding: string,
  serverSecret = config.dashboardJwtSecret,
): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(serverSecret, binding), iv);
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [FORMAT, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The sealed secret; null when it was sealed for another binding or server secret, or altered. */
export function openSecret(
  sealed: string,
  binding: string,
  serverSecret = config.dashboardJwtSecret,
): string | null {
  const [format, iv, tag, ciphertext, ...rest] = sealed.split('.');
  if (format !== FORMAT || !iv || !tag || ciphertext === undefined || rest.length) return null;
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      sealingKey(serverSecret, binding),
      Buffer.from(iv, 'base64url'),
      { authTagLength: TAG_BYTES },
    );
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(ciphertext, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    return null;
  }
}
