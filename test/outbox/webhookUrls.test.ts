// Webhook URLs: their form, then every address their host resolves to.
import {
  checkedAddress,
  savedUrlRefusal,
  urlFormRefusal,
  type Resolve,
} from '../../src/outbox/urls';

const PORT_REFUSAL =
  'url must use port 443 or 80 (others only where WEBHOOK_ALLOW_PRIVATE_URLS is set, in development)';

describe('urlFormRefusal', () => {
  test.each([
    ['https://hooks.example.com/orders', false, null],
    ['http://hooks.example.com/orders', false, 'url must be https'],
    ['http://localhost:3000/orders', true, null],
    ['ftp://hooks.example.com/', true, 'url must be http or https'],
    [
      'hooks.example.com/orders',
      false,
      'url must be an absolute URL, like https://example.com/webhooks',
    ],
    [
      'https://user:secret@hooks.example.com/',
      false,
      'url must not carry credentials (user:password@)',
    ],
    ['https://hooks.example.com/#frag', false, 'url must not have a fragment (#...)'],
    ['https://hooks.example.com:443/orders', false, null],
    ['https://hooks.example.com:80/orders', false, null],
    ['https://hooks.example.com:8443/orders', false, PORT_REFUSAL],
    ['https://hooks.example.com:5432/', false, PORT_REFUSAL],
    ['http://localhost:3000/orders', false, 'url must be https'],
    ['https://localhost:8443/orders', true, null],
    [
      `https://hooks.example.com/${'a'.repeat(2_000)}`,
      false,
      'url must be at most 2000 characters',
    ],
  ])('%s (private allowed: %s): %s', (url, allowPrivate, refusal) => {
    expect(urlFormRefusal(url, allowPrivate)).toBe(refusal);
  });
});

describe('checkedAddress', () => {
  const resolvingTo =
    (...addresses: string[]): Resolve =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  test('a host whose every address is public: the first one, to connect to', async () => {
    const check = await checkedAddress(
      new URL('https://hooks.example.com/'),
      false,
      resolvingTo('93.184.215.14', '2606:2800:220:1:248:1893:25c8:1946'),
    );
    expect(check).toEqual({ ok: true, address: { address: '93.184.215.14', family: 4 } });
  });

  test('one private address among public ones refuses the host', async () => {
    const check = await checkedAddress(
      new URL('https://rebind.example.com/'),
      false,
      resolvingTo('93.184.215.14', '10.0.0.5'),
    );
    expect(check).toEqual({
      ok: false,
      reason: 'the host rebind.example.com resolves to a private address',
    });
  });

  test('the metadata address is refused even where private URLs are allowed', async () => {
    const check = await checkedAddress(
      new URL('http://metadata.example.com/'),
      true,
      resolvingTo('169.254.169.254'),
    );
    expect(check).toEqual({
      ok: false,
      reason: 'the host metadata.example.com resolves to a metadata address',
    });
  });

  test('another port than 443 or 80 is refused at delivery too, before the host is resolved', async () => {
    const resolve = jest.fn(resolvingTo('93.184.215.14'));
    expect(
      await checkedAddress(new URL('https://hooks.example.com:2375/'), false, resolve),
    ).toEqual({ ok: false, reason: PORT_REFUSAL });
    expect(resolve).not.toHaveBeenCalled();
    expect(await checkedAddress(new URL('https://hooks.example.com:443/'), false, resolve)).toEqual(
      { ok: true, address: { address: '93.184.215.14', family: 4 } },
    );
  });

  test('a host that does not resolve is refused', async () => {
    const failing: Resolve = async () => {
      throw new Error('ENOTFOUND');
    };
    expect(await checkedAddress(new URL('https://nowhere.invalid/'), false, failing)).toEqual({
      ok: false,
      reason: 'the host nowhere.invalid cannot be resolved',
    });
  });

  test('an IP literal is its own address', async () => {
    expect(await checkedAddress(new URL('http://[::1]:8080/'), true)).toEqual({
      ok: true,
      address: { address: '::1', family: 6 },
    });
  });
});

describe('savedUrlRefusal', () => {
  const HINT = '(in development, WEBHOOK_ALLOW_PRIVATE_URLS=1 allows http and local addresses)';
  const development = { allowPrivate: false, isProduction: false };

  test.each([
    ['http://127.0.0.1:4001/webhooks', `url must be https ${HINT}`],
    [
      'https://127.0.0.1/webhooks',
      `url is not allowed: the host 127.0.0.1 resolves to a loopback address ${HINT}`,
    ],
    [
      'https://10.1.2.3/webhooks',
      `url is not allowed: the host 10.1.2.3 resolves to a private address ${HINT}`,
    ],
  ])('in development, %s is refused saying how local URLs are allowed', async (url, refusal) => {
    expect(await savedUrlRefusal(url, development)).toBe(refusal);
  });

  test('what the setting would not allow either is refused without the hint', async () => {
    expect(await savedUrlRefusal('http://169.254.169.254/', development)).toBe('url must be https');
    expect(await savedUrlRefusal('https://169.254.169.254/', development)).toBe(
      'url is not allowed: the host 169.254.169.254 resolves to a metadata address',
    );
    expect(await savedUrlRefusal('https://192.0.2.10:8443/h', development)).toBe(PORT_REFUSAL);
  });

  test('production refusals give no hint: the setting is refused there', async () => {
    expect(
      await savedUrlRefusal('http://127.0.0.1:4001/webhooks', {
        allowPrivate: false,
        isProduction: true,
      }),
    ).toBe('url must be https');
  });

  test('a postback names its template', async () => {
    expect(
      await savedUrlRefusal('http://127.0.0.1:4002/p', { ...development, name: 'urlTemplate' }),
    ).toBe(`urlTemplate must be https ${HINT}`);
  });

  test('where private URLs are allowed, a local URL is accepted', async () => {
    expect(
      await savedUrlRefusal('http://127.0.0.1:4001/webhooks', {
        allowPrivate: true,
        isProduction: false,
      }),
    ).toBeNull();
  });
});
