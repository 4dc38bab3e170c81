/**
 * First uses that cost tens of milliseconds in a fresh page, paid while it waits for the
 * thread, each in a task of its own so that none of them is a long task or lands in the frame
 * that shows the first entries: the page's first style pass (which focusing or a layout
 * forces), the first Markdown rendering, and the first number formatted for the user's locale
 * (`toLocaleString` loads the locale's data: 25–40 ms in Chromium, once per page).
 */
import { warmUpMarkdown } from './markdown';

export function warmUpPage(focus: () => void): void {
  const steps = [
    // Only a page that has the focus takes it for its message box: one still starting when the
    // user went elsewhere (the command palette) would take it back and close the palette. It
    // lays out instead, which forces the same style pass.
    () => (document.hasFocus() ? focus() : void document.body.getBoundingClientRect()),
    warmUpMarkdown,
    () => (1234.5).toLocaleString(),
  ];
  const next = (): void => {
    steps.shift()?.();
    if (steps.length) setTimeout(next);
  };
  setTimeout(next);
}
