/**
 * The price-hiding response policy, as a pure function over any answer: inside every object that
 * belongs to a hidden order family, every price field goes and `price_hidden: true` comes; the
 * answer itself then carries `price_hidden: true` too. Identifiers and names (`rate_id`, service
 * names, surcharge codes) stay.
 */

/** Fields that hold money, wherever they appear in a hidden subtree. */
export const PRICE_FIELDS: ReadonlySet<string> = new Set([
  'shipping_price',
  'price_details',
  'currency',
  'tax',
  'price',
  'prices',
  'total',
  'subtotal',
  'amount',
  'base_price',
  'paid_amount',
  'amount_paid',
  'balance',
]);

/** How an answer tells which family a part of it belongs to. */
export interface FamilyLocator {
  /** The family of the whole answer, for operations about one family (label rates, ...). */
  answerFamily?: string;
}

export interface Hidden {
  result: unknown;
  hidden: boolean;
}

export function hidePrices(
  result: unknown,
  hiddenFamilies: ReadonlySet<string>,
  locator: FamilyLocator = {},
): Hidden {
  if (hiddenFamilies.size === 0) return { result, hidden: false };
  let hidden = false;
  const walk = (node: unknown, inHidden: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => walk(item, inHidden));
    if (node === null || typeof node !== 'object') return node;
    const record = node as Record<string, unknown>;
    const family = typeof record.family === 'string' ? record.family : undefined;
    const hideHere = inHidden || (family !== undefined && hiddenFamilies.has(family));
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(record)) {
      if (hideHere && PRICE_FIELDS.has(key)) {
        hidden = true;
        continue;
      }
      out[key] = walk(value, hideHere);
    }
    if (hideHere && family !== undefined) out.price_hidden = true;
    return out;
  };
  const answerHidden = locator.answerFamily !== undefined && hiddenFamilies.has(locator.answerFamily);
  const stripped = walk(result, answerHidden);
  if (!hidden && !answerHidden) return { result, hidden: false };
  const withFlag =
    stripped !== null && typeof stripped === 'object' && !Array.isArray(stripped)
      ? { ...(stripped as Record<string, unknown>), price_hidden: true }
      : stripped;
  return { result: withFlag, hidden: true };
}
