/** The repository API's cross-site request forgery key: 16 random alphanumeric characters. */
import { randomInt } from "node:crypto";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

export function createXrfKey(): string {
  let key = "";
  for (let i = 0; i < 16; i++) key += ALPHABET[randomInt(ALPHABET.length)];
  return key;
}
