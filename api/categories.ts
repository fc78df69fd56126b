// The spec's catalog categories, the one table of them (spec, What the service does: "Catalog category ids
// (categoryId parameter): Pin = 1, Rtr = 2, Bill Pay = 4, Sim = 5, Gift Card = 6, eSim = 7").

/** Catalog category ids by the name the spec gives them. */
export const CATEGORY_IDS = Object.freeze({ Pin: 1, Rtr: 2, 'Bill Pay': 4, Sim: 5, 'Gift Card': 6, eSim: 7 } as const);
export type CategoryName = keyof typeof CATEGORY_IDS;
export type CategoryId = (typeof CATEGORY_IDS)[CategoryName];
