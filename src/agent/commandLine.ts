/**
 * A command line split into words as a shell would for simple cases: spaces separate, and
 * single or double quotes keep a path with spaces in one word. No expansion of any kind.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: '"' | "'" | undefined;
  let inWord = false;
  for (const ch of line.trim()) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** A command and its arguments as one line the user can edit (words with spaces quoted). */
export function joinCommandLine(command: string, args: readonly string[]): string {
  return [command, ...args].map((w) => (w === '' || /[\s"']/.test(w) ? JSON.stringify(w) : w)).join(' ');
}
