// Standard Webhooks signing: secrets in the `whsec_<base64>` form, and the three headers of a
// message. During a rotation's grace period the message carries a signature by each secret, so
// receivers holding either one accept it.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** How long a replaced secret keeps signing beside the new one after rotateWebhookSecret. */
export const SECRET_GRACE_PERIOD_S = 24 * 3600;

/** A new signing secret: 24 random bytes, as Standard Webhooks libraries expect them. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export interface SigningSecrets {
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

/** The secrets that sign at `now`: the current one, and the replaced one during its grace. */
export function activeSecrets(endpoint: SigningSecrets, now: Date): string[] {
  const isPreviousActive =
    endpoint.previousSecret !== null &&
    endpoint.previousSecretExpiresAt !== null &&
    endpoint.previousSecretExpiresAt > now;
  return isPreviousActive ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
}

/** The headers of one attempt: the message id (the same on every attempt), its time and signatures. */
export function signedHeaders(
  messageId: string,
  body: string,
  secrets: readonly string[],
  now: Date,
): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': secrets
      .map((secret) => new Webhook(secret).sign(messageId, now, body))
      .join(' '),
  };
}
