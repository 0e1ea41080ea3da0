// The sealed full key of an Idempotency-Key replay: only the same binding and server secret open it.
import { openSecret, sealSecret } from '../../src/modules/secrets/replaySeal';

const SERVER = 'server-secret-server-secret-server-secret';
const KEY = 'svc_test_abcd1234_0123456789ABCDEFGHIJabcdefghij';

describe('sealSecret / openSecret', () => {
  test('round trip under the same binding and server secret', () => {
    const sealed = sealSecret(KEY, 'dashboard-user:u1\nidem-1', SERVER);
    expect(openSecret(sealed, 'dashboard-user:u1\nidem-1', SERVER)).toBe(KEY);
  });

  test('the sealed text shows nothing of the key', () => {
    const sealed = sealSecret(KEY, 'b', SERVER);
    expect(sealed).not.toContain(KEY.slice(-32));
    expect(sealed).not.toContain('svc_');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  test('each seal is different (random IV)', () => {
    expect(sealSecret(KEY, 'b', SERVER)).not.toBe(sealSecret(KEY, 'b', SERVER));
  });

  test('another binding, another server secret, or an altered seal: null', () => {
    const sealed = sealSecret(KEY, 'dashboard-user:u1\nidem-1', SERVER);
    expect(openSecret(sealed, 'dashboard-user:u2\nidem-1', SERVER)).toBeNull();
    expect(openSecret(sealed, 'dashboard-user:u1\nidem-2', SERVER)).toBeNull();
    expect(openSecret(sealed, 'dashboard-user:u1\nidem-1', `${SERVER}x`)).toBeNull();
    const [format, iv, tag, body] = sealed.split('.') as [string, string, string, string];
    const flipped = body.slice(0, -1) + (body.endsWith('A') ? 'B' : 'A');
    expect(
      openSecret([format, iv, tag, flipped].join('.'), 'dashboard-user:u1\nidem-1', SERVER),
    ).toBeNull();
  });

  test.each(['', 'v1', 'v2.a.b.c', 'v1.a.b', 'v1.a.b.c.d', 'not sealed at all'])(
    'malformed %p: null',
    (sealed) => {
      expect(openSecret(sealed, 'b', SERVER)).toBeNull();
    },
  );
});
