/**
 * Text the user approves (a permission card, a tool's title and input, a file it names, an
 * address to open) shows its invisible direction controls as escapes: U+202E and its kin make
 * `rm -rf ~/‮txt.tset` read as something else than what runs. Text the user only reads (replies,
 * thoughts) keeps them: they are how right-to-left languages are written.
 */
const CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `s` with every bidi control written as `\u202E`. */
export function visible(s: string): string {
  return s.replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}
