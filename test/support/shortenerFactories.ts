// Rows for the shortener and redirect tests: short links with valid url codes and any of their
// fields set (created-at, active, click count), and a JSON POST helper for the creation route.
import { prisma } from '../../src/db';
import type { Prisma } from '../../src/generated/prisma/client';
import { generateUrlCode } from '../../src/shortLinks/links';
import { app, type CallResult } from './app';

let sequence = 0;
const next = () => (sequence += 1);

/** A link of the affiliate to the brand; a BrandPage-like link unless `data` says otherwise. */
export function createLink(
  affiliateId: string,
  organizationId: string,
  data: Partial<Omit<Prisma.ShortUrlUncheckedCreateInput, 'affiliateId' | 'organizationId'>> = {},
) {
  const n = next();
  return prisma.shortUrl.create({
    data: {
      urlCode: generateUrlCode(),
      affiliateId,
      organizationId,
      linkType: 'Custom',
      originalUrl: `https://links.example/page/${n}?aff=${affiliateId}`,
      dedupeKey: `test-link:${n}`,
      ...data,
    },
  });
}

export const SHORTENER_PATH = '/affiliate/shortener/url';

/**
 * POSTs a raw body (string) to the creation route, as an HTTP client would; `call()` in
 * test/support/app.ts sends JSON only, and several tests need bodies that are not.
 */
export async function postRaw(
  body: string | undefined,
  options: { key?: string; headers?: Record<string, string>; path?: string } = {},
): Promise<CallResult> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...options.headers,
  };
  if (options.key !== undefined) headers['x-api-key'] = options.key;
  const response = await app.fetch(`http://api.test${options.path ?? SHORTENER_PATH}`, {
    method: 'POST',
    headers,
    body,
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : null,
  };
}

/** POSTs a JSON body to the creation route. */
export function createShortUrl(
  key: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<CallResult> {
  return postRaw(JSON.stringify(body), { key, headers });
}

export function clickCountOf(urlCode: string): Promise<number> {
  return prisma.shortUrl
    .findUniqueOrThrow({ where: { urlCode }, select: { clickCount: true } })
    .then((link) => link.clickCount);
}
