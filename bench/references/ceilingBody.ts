// The ceiling's body: 20 items shaped like an affiliate brand list item, with the `pagination`
// envelope, fixed values. Its own module so that the stack floor (stackFloorServer.ts) answers the
// same body without bundling the ceiling's server.
const DAY_MS = 86_400_000;
const EPOCH = Date.UTC(2026, 0, 1);

/** The i-th item, shaped like GET /affiliate/brands' items (fixed values, no randomness). */
function brandItem(i: number) {
  const slug = `ceiling-brand-${String(i).padStart(2, '0')}`;
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    name: `Ceiling Brand ${i}`,
    slug,
    description: `Ceiling Brand ${i}: a fixed item of the ceiling body, sized like a real brand.`,
    logoUrl: `https://${slug}.example/logo.png`,
    websiteUrl: `https://${slug}.example`,
    categories: ['electronics', 'fashion'].slice(0, 1 + (i % 2)),
    isExclusive: i % 5 === 0,
    isHighlight: i % 3 === 0,
    isPublic: true,
    createdAt: new Date(EPOCH - i * DAY_MS).toISOString(),
    commission: { type: 'PERCENTAGE', value: 5 + (i % 10) / 2 },
    isFavorite: false,
    channels: [],
    shortUrl: null,
  };
}

export const CEILING_ITEMS = 20;

export function ceilingBody(): Buffer {
  const data = Array.from({ length: CEILING_ITEMS }, (_, i) => brandItem(i + 1));
  return Buffer.from(
    JSON.stringify({
      data,
      pagination: { page: 1, limit: CEILING_ITEMS, total: 400, totalPages: 20 },
    }),
  );
}
