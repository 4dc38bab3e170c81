/**
 * What a search hit's words are looked for as in the entry it is in: the words as one phrase when
 * the entry holds it, else the first word it holds ('' when it holds none). The chat's find bar
 * opens on it (src/webview/findBar.ts `showAt`), and the host's first screen of the hit marks it
 * (src/chat/firstScreen.ts), so both mark the same words.
 */
export function findQuery(text: string, words: readonly string[]): string {
  const lower = text.toLowerCase();
  const phrase = words.join(' ').toLowerCase();
  if (phrase && lower.includes(phrase)) return phrase;
  return words.find((w) => lower.includes(w.toLowerCase()))?.toLowerCase() ?? '';
}
