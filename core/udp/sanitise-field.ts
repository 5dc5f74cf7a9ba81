/**
 * Sanitising of UDP event fields: the control characters U+0000–U+001F and U+007F are removed —
 * they include the CR/LF a shell's `echo | nc` appends and anything that would break a log line, a
 * line-protocol line or a topic — and the value is then cut to the field's maximum length. Every
 * datagram passes each field through here, so the common case (a clean, short value) returns the
 * input itself without allocating.
 */

const isControl = (code: number): boolean => code < 0x20 || code === 0x7f;

/** `value` without control characters, at most `maxLength` UTF-16 code units long. */
export function sanitiseField(value: string, maxLength: number): string {
  const length = value.length;
  let clean = 0;
  while (clean < length && clean < maxLength && !isControl(value.charCodeAt(clean))) clean++;
  if (clean === length) return value;
  if (clean === maxLength) return cutAt(value, maxLength);

  // Slow path: control characters inside the part that is kept. Collect the clean runs until
  // `maxLength` characters are kept, so a huge field costs no more than its kept part.
  let out = "";
  let runStart = 0;
  let kept = 0;
  let i = 0;
  for (; i < length && kept < maxLength; i++) {
    if (isControl(value.charCodeAt(i))) {
      out += value.slice(runStart, i);
      runStart = i + 1;
    } else {
      kept++;
    }
  }
  out += value.slice(runStart, i);
  return i < length ? dropSplitSurrogate(out) : out;
}

/** The first `end` code units; a surrogate pair is never split (that would leave U+FFFD behind). */
function cutAt(value: string, end: number): string {
  return dropSplitSurrogate(value.slice(0, end));
}

function dropSplitSurrogate(cut: string): string {
  const last = cut.charCodeAt(cut.length - 1);
  // Decoded UTF-8 never holds a lone high surrogate, so a trailing one is half of a cut pair.
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}
