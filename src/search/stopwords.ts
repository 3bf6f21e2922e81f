/** English words that carry no retrieval signal in code search. Kept short on purpose: `get`, `set`, `new` stay. */
export const STOPWORDS = new Set(
  `a an and are as at be been but by can could did do does doing for from had has have having he her his how i if in into is it its
  may me might must my no nor not of on or ought our out over shall she should so some such than that the their them then there these they this those
  through to too under until up very was we were what when where which while who whom why will with would you your`.split(/\s+/),
);
