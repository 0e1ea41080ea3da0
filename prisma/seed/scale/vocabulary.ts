// Words the scale seed builds names from. Brand names are always three words (prefix, stem,
// category word), so their slugs never meet the demo brands' (two words, or other words).

export const CATEGORIES = [
  'fashion',
  'electronics',
  'beauty',
  'home',
  'sports',
  'travel',
  'food',
  'books',
] as const;

/** Travel brands pay a fixed fee per booking; the others a share of the sale (as in the demo). */
export const TRAVEL = CATEGORIES.indexOf('travel');

export const CATEGORY_BLURBS = [
  'Clothing and accessories for every day.',
  'Gadgets, audio and accessories.',
  'Skincare and cosmetics.',
  'Furniture, decor and textiles.',
  'Gear for training and the outdoors.',
  'Trips, stays and luggage.',
  'Pantry staples and treats.',
  'Books, stationery and gifts.',
];

// prettier-ignore
export const BRAND_PREFIXES = [
  'North', 'South', 'Blue', 'Bright', 'Silver', 'Golden', 'Urban', 'Coastal', 'Alpine', 'Maple',
  'Cedar', 'Harbor', 'Summit', 'River', 'Stone', 'Willow', 'Amber', 'Copper', 'Ivory', 'Scarlet',
  'Misty', 'Sunny', 'Lunar', 'Solar', 'Crystal', 'Velvet', 'Rustic', 'Modern', 'Royal', 'Wild',
  'Quiet', 'Bold', 'Happy', 'Little', 'Grand', 'Open', 'True', 'Pure', 'Swift', 'Noble',
];

// prettier-ignore
export const BRAND_STEMS = [
  'Oak', 'Pine', 'Fox', 'Wolf', 'Bear', 'Hawk', 'Wren', 'Finch', 'Lark', 'Bay',
  'Peak', 'Field', 'Meadow', 'Brook', 'Grove', 'Ridge', 'Dune', 'Reef', 'Vale', 'Glen',
  'Haven', 'Forge', 'Mill', 'Loom', 'Thread', 'Lantern', 'Compass', 'Anchor', 'Arrow', 'Bloom',
  'Petal', 'Leaf', 'Root', 'Spark', 'Wave', 'Tide', 'Cloud', 'Star', 'Moon', 'Fern',
];

/** Two words per category, in CATEGORIES order: the brand's last word. */
// prettier-ignore
export const BRAND_CATEGORY_WORDS = [
  'Apparel', 'Outfitters', 'Electronics', 'Gadgets', 'Beauty', 'Cosmetics', 'Home', 'Living',
  'Sports', 'Athletics', 'Travel', 'Journeys', 'Kitchen', 'Pantry', 'Books', 'Press',
];

// prettier-ignore
export const OFFER_THEMES = [
  'Spring Sale', 'Summer Clearance', 'Autumn Favourites', 'Winter Warmers', 'New Arrivals',
  'Weekend Flash Sale', 'Bestseller Bundles', 'Members Week', 'Outlet Event', 'Gift Guide',
  'Back to School',
];

// prettier-ignore
export const COUPON_THEMES = [
  'Welcome Discount', 'Free Shipping Code', 'Loyalty Reward', 'Birthday Treat', 'App Exclusive',
  'Newsletter Bonus', 'Bundle Saver', 'Early Bird Code', 'VIP Code', 'Refer a Friend',
  'Holiday Code',
];

/** Five per category, in CATEGORIES order. */
// prettier-ignore
export const PRODUCT_BASES = [
  'Linen Shirt', 'Merino Sweater', 'Denim Jacket', 'Leather Belt', 'Canvas Sneakers',
  'Wireless Earbuds', 'USB-C Charger', 'Smart Speaker', 'Mechanical Keyboard', '4K Monitor',
  'Vitamin C Serum', 'Hydrating Cream', 'Matte Lipstick', 'Clay Mask', 'Mineral Sunscreen',
  'Ceramic Vase', 'Linen Bedding Set', 'Oak Side Table', 'Scented Candle', 'Wool Throw',
  'Trail Running Shoes', 'Yoga Mat', 'Insulated Bottle', 'Cycling Gloves', 'Running Vest',
  'Carry-on Suitcase', 'Packing Cubes', 'Travel Pillow', 'Weekender Bag', 'Passport Wallet',
  'Olive Oil', 'Single-Origin Coffee', 'Spice Gift Box', 'Dark Chocolate', 'Wildflower Honey',
  'Hardcover Novel', 'Seasonal Cookbook', 'City Travel Guide', 'Notebook Set', 'Picture Book',
];

// prettier-ignore
export const PRODUCT_QUALIFIERS = [
  'Classic', 'Essential', 'Pro', 'Lite', 'Premium', 'Everyday', 'Signature', 'Studio', 'Compact',
  'Limited Edition',
];

/** Two specifications per category, in CATEGORIES order, each with three values. */
// prettier-ignore
export const SPECIFICATIONS: { name: string; values: [string, string, string] }[] = [
  { name: 'Material', values: ['Organic cotton', 'Linen', 'Merino wool'] },
  { name: 'Care', values: ['Machine wash', 'Hand wash', 'Dry clean'] },
  { name: 'Warranty', values: ['2 years', '3 years', '5 years'] },
  { name: 'Connectivity', values: ['Bluetooth 5.3', 'USB-C', 'Wi-Fi 6'] },
  { name: 'Skin type', values: ['All', 'Dry', 'Sensitive'] },
  { name: 'Vegan', values: ['Yes', 'No', 'Yes'] },
  { name: 'Material', values: ['Oak', 'Ceramic', 'Glass'] },
  { name: 'Dimensions', values: ['20 x 20 cm', '45 x 60 cm', '90 x 120 cm'] },
  { name: 'Material', values: ['Mesh', 'Neoprene', 'Stainless steel'] },
  { name: 'Weight', values: ['120 g', '350 g', '900 g'] },
  { name: 'Weight', values: ['1.2 kg', '2.8 kg', '3.5 kg'] },
  { name: 'Warranty', values: ['5 years', '10 years', 'Lifetime'] },
  { name: 'Origin', values: ['Italy', 'Ethiopia', 'Colombia'] },
  { name: 'Net weight', values: ['250 g', '500 g', '1 kg'] },
  { name: 'Language', values: ['English', 'German', 'French'] },
  { name: 'Pages', values: ['96', '240', '384'] },
];

/** Three variants per category, in CATEGORIES order; a product has the first one to three. */
// prettier-ignore
export const VARIANTS: Record<string, string>[] = [
  { size: 'S', color: 'black' }, { size: 'M', color: 'black' }, { size: 'L', color: 'navy' },
  { color: 'black' }, { color: 'white' }, { color: 'silver' },
  { volume: '30 ml' }, { volume: '50 ml' }, { volume: '100 ml' },
  { color: 'sand' }, { color: 'sage' }, { color: 'terracotta' },
  { size: 'M', color: 'red' }, { size: 'L', color: 'red' }, { size: 'XL', color: 'blue' },
  { size: 'cabin' }, { size: 'medium' }, { size: 'large' },
  { weight: '250 g' }, { weight: '500 g' }, { weight: '1 kg' },
  { format: 'hardcover' }, { format: 'paperback' }, { format: 'ebook' },
];

// prettier-ignore
export const FIRST_NAMES = [
  'Ada', 'Bruno', 'Chloe', 'Diego', 'Elena', 'Farid', 'Greta', 'Hugo', 'Ines', 'Jonas',
  'Kira', 'Luca', 'Mila', 'Nora', 'Omar', 'Paula', 'Quinn', 'Rosa', 'Sami', 'Tara',
  'Umar', 'Vera', 'Wim', 'Xenia', 'Yusuf', 'Zoe', 'Anton', 'Bea', 'Carl', 'Dana',
  'Emil', 'Frida', 'Gil', 'Hana', 'Ivo', 'Jana', 'Kai', 'Lea', 'Milo', 'Nina',
];

// prettier-ignore
export const LAST_NAMES = [
  'Almeida', 'Berger', 'Costa', 'Dubois', 'Eriksen', 'Fischer', 'Garcia', 'Horvat', 'Ivanova',
  'Jensen', 'Kowalski', 'Lambert', 'Moreau', 'Novak', 'Oliveira', 'Peters', 'Quist', 'Rossi',
  'Schmidt', 'Tanaka', 'Ueda', 'Vogel', 'Weber', 'Xu', 'Yilmaz', 'Zimmer', 'Andersen', 'Bianchi',
  'Carvalho', 'Dijkstra', 'Esposito', 'Ferreira', 'Gomez', 'Hansen', 'Ibrahim', 'Janssen',
  'Keller', 'Lopez', 'Martin', 'Nielsen',
];

/** The demo seed creates these channel types; scale channels use all but WhiteLabel. */
export const CHANNEL_TYPE_NAMES = [
  'Blog',
  'Instagram',
  'YouTube',
  'TikTok',
  'Email',
  'Push Notification',
];

// prettier-ignore
export const DEEP_LINK_PATHS = [
  '/collections/new-in', '/collections/bestsellers', '/collections/sale', '/gift-cards',
  '/collections/bundles', '/stores', '/collections/last-chance', '/blog/buying-guide',
];

/** What affiliates tag their traffic with in sub1: the newsletter, post or ad set a visit came from. */
export const SUB1_SOURCES = [
  'newsletter-jan',
  'newsletter-feb',
  'newsletter-mar',
  'newsletter-weekly',
  'blog-review',
  'blog-top10',
  'blog-guide',
  'ig-story',
  'ig-reel',
  'tiktok-haul',
  'yt-unboxing',
  'yt-description',
  'ppc-brand',
  'ppc-generic',
  'pinterest-board',
  'push-flash',
  'deal-page',
  'comparison-table',
  'podcast-ad',
  'spring-sale',
] as const;

/** And in sub2: where on the page the link was. */
export const SUB2_PLACEMENTS = ['header', 'hero', 'inline', 'sidebar', 'footer', 'popup'] as const;
