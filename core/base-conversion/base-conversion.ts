/**
 * Arbitrary-length conversion between base62 and base16 strings (Qlik ids in both forms). Alphabets
 * as in Butler: base62 = 0-9, a-z, A-Z; base16 = 0-9, a-f (lowercase only). Leading zeros are not
 * preserved and an empty input converts to "0", as in Butler.
 */

export const BASE62_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
export const BASE16_ALPHABET = "0123456789abcdef";

/** The input holds a character outside the source alphabet. */
export class InvalidDigitError extends Error {
  constructor(
    readonly base: 16 | 62,
    readonly character: string,
  ) {
    super(`Invalid base${base} digit '${character}'`);
    this.name = "InvalidDigitError";
  }
}

function toBigInt(input: string, alphabet: string, base: 16 | 62): bigint {
  const radix = BigInt(alphabet.length);
  let value = 0n;
  for (const character of input) {
    const digit = alphabet.indexOf(character);
    if (digit < 0) throw new InvalidDigitError(base, character);
    value = value * radix + BigInt(digit);
  }
  return value;
}

function fromBigInt(value: bigint, alphabet: string): string {
  if (value === 0n) return alphabet[0]!;
  const radix = BigInt(alphabet.length);
  const digits: string[] = [];
  let rest = value;
  while (rest > 0n) {
    digits.push(alphabet[Number(rest % radix)]!);
    rest /= radix;
  }
  return digits.reverse().join("");
}

export function base62ToBase16(base62: string): string {
  return fromBigInt(toBigInt(base62, BASE62_ALPHABET, 62), BASE16_ALPHABET);
}

export function base16ToBase62(base16: string): string {
  return fromBigInt(toBigInt(base16, BASE16_ALPHABET, 16), BASE62_ALPHABET);
}
