// Signing per Standard Webhooks, checked with the library receivers use; rotation's grace.
import { Webhook } from 'standardwebhooks';
import { activeSecrets, newWebhookSecret, signedHeaders } from '../../src/modules/webhooks/signing';

const NOW = new Date('2026-06-01T12:00:00.000Z');

test('a new secret is whsec_ and 24 random bytes in base64', () => {
  const secret = newWebhookSecret();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
  expect(newWebhookSecret()).not.toBe(secret);
});

test('the headers verify with the library, for the current time', () => {
  const secret = newWebhookSecret();
  const body = JSON.stringify({ type: 'order.created', timestamp: NOW.toISOString(), data: {} });
  const now = new Date();
  const headers = signedHeaders('msg-1', body, [secret], now);
  expect(headers['webhook-id']).toBe('msg-1');
  expect(headers['webhook-timestamp']).toBe(String(Math.floor(now.getTime() / 1000)));
  expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
  expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
});

test('during the grace period both secrets sign; after it, only the new one', () => {
  const endpoint = {
    secret: 'whsec_new',
    previousSecret: 'whsec_old',
    previousSecretExpiresAt: new Date(NOW.getTime() + 1_000),
  };
  expect(activeSecrets(endpoint, NOW)).toEqual(['whsec_new', 'whsec_old']);
  expect(activeSecrets(endpoint, new Date(NOW.getTime() + 1_000))).toEqual(['whsec_new']);
  expect(
    activeSecrets(
      { secret: 'whsec_new', previousSecret: null, previousSecretExpiresAt: null },
      NOW,
    ),
  ).toEqual(['whsec_new']);
});
