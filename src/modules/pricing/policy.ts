/**
 * The price-hiding response policy, as a pure function over any answer: inside every object that
 * belongs to a hidden order family, every price field goes and `price_hidden: true` comes; the
 * answer itself then carries `price_hidden: true` too. Identifiers and names (`rate_id`, service
 * names, surcharge codes) stay.
 */

import { isPageTotal, PRICE_FIELDS } from '../../platform/catalog/answers.ts';

export { PRICE_FIELDS };

/**
 * The answer without the price fields of the hidden families, marked `price_hidden`. A part of
 * the answer names its family (`family`); `answerFamily` is the family of the whole answer, for
 * operations about one family (label rates, ...).
 */
export function hidePrices(
  result: unknown,
  hiddenFamilies: ReadonlySet<string>,
  answerFamily?: string,
): unknown {
  if (hiddenFamilies.size === 0) return result;
  let hidden = false;
  const walk = (node: unknown, inHidden: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => walk(item, inHidden));
    if (node === null || typeof node !== 'object') return node;
    const record = node as Record<string, unknown>;
    const family = typeof record.family === 'string' ? record.family : undefined;
    const hideHere = inHidden || (family !== undefined && hiddenFamilies.has(family));
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(record)) {
      if (hideHere && PRICE_FIELDS.has(key) && !isPageTotal(key, record)) {
        hidden = true;
        continue;
      }
      out[key] = walk(value, hideHere);
    }
    if (hideHere && family !== undefined) out.price_hidden = true;
    return out;
  };
  const answerHidden = answerFamily !== undefined && hiddenFamilies.has(answerFamily);
  const stripped = walk(result, answerHidden);
  if (!hidden && !answerHidden) return result;
  return stripped !== null && typeof stripped === 'object' && !Array.isArray(stripped)
    ? { ...(stripped as Record<string, unknown>), price_hidden: true }
    : stripped;
}
