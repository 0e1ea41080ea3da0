// One counter for every factory, so names, slugs and codes never collide within a test file.
let last = 0;

export const next = (): number => (last += 1);
