/**
 * Check-digit rules of the tracking-number formats, each as the function that computes the
 * check character of a body (so validating is "compute and compare", and generating is the same call).
 */

const digitValue = (char: string): number => char.charCodeAt(0) - 48;

/** GS1 mod 10 (SSCC, GSIN, USPS IMpb, Canada Post, FedEx Ground): weights 3,1,3,... from the right. */
export function gs1Mod10(body: string): string {
  let sum = 0;
  for (let i = body.length - 1, weight = 3; i >= 0; i -= 1, weight = 4 - weight) {
    sum += digitValue(body[i]!) * weight;
  }
  return String((10 - (sum % 10)) % 10);
}

/**
 * UPS 1Z: the 15 characters after "1Z", letters valued (code - 63) mod 10 (A=2 ... I=0, J=1 ...),
 * characters in even positions (2nd, 4th, ...) doubled, check = 10 - sum mod 10.
 */
export function upsCheck(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i += 1) {
    const char = body[i]!;
    const value = char >= '0' && char <= '9' ? digitValue(char) : (char.charCodeAt(0) - 63) % 10;
    sum += i % 2 === 1 ? value * 2 : value;
  }
  return String((10 - (sum % 10)) % 10);
}

/** FedEx Express 12-digit: weights 1,3,7 repeated from the right of the 11-digit body, mod 11, 10 -> 0. */
export function fedexExpressCheck(body: string): string {
  const weights = [1, 3, 7];
  let sum = 0;
  for (let i = body.length - 1, k = 0; i >= 0; i -= 1, k += 1) sum += digitValue(body[i]!) * weights[k % 3]!;
  return String((sum % 11) % 10);
}

/** DHL Express: the body as a number, mod 7. */
export function mod7Check(body: string): string {
  let remainder = 0;
  for (const char of body) remainder = (remainder * 10 + digitValue(char)) % 7;
  return String(remainder);
}

/** UPU S10: weights 8,6,4,2,3,5,9,7 over the 8 serial digits; 11 - sum mod 11, 10 -> 0, 11 -> 5. */
export function s10Check(serial: string): string {
  const weights = [8, 6, 4, 2, 3, 5, 9, 7];
  let sum = 0;
  for (let i = 0; i < 8; i += 1) sum += digitValue(serial[i]!) * weights[i]!;
  const check = 11 - (sum % 11);
  return String(check === 10 ? 0 : check === 11 ? 5 : check);
}
