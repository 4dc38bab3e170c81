/**
 * The chat webview's Content Security Policy, one definition for the panel and the browser
 * tests: nothing by default; styles, fonts and images only from the extension's own files (and
 * inline `data:` images); scripts only with the page's nonce, so no inline script agent text
 * could smuggle in ever runs, and nothing is fetched from anywhere else. A style element needs the
 * nonce too (the first screen's own, inlined: src/chat/firstScreen.ts); style attributes never apply.
 */
export function chatCsp(source: string, nonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${source} 'nonce-${nonce}'`,
    `font-src ${source}`,
    `img-src ${source} data:`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}
