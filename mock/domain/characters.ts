// What the seeds call a character (seed 001: "text (1) limited to 255 characters", "password …
// minimum 8 characters"): a Unicode code point, as JSON Schema's maxLength and minLength count them,
// not a UTF-16 unit — 🔥 is one character, though `'🔥'.length` is 2.

/** The number of characters (code points) of `text`. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
