/**
 * When VS Code gives the panel the focus (its tab clicked, a keyboard shortcut, the panel
 * revealed), the page gets it, not an element: typed text would go nowhere. The message box
 * takes it then, unless the focus came with a click on something else in the page (selecting
 * text, a button), which goes where the click put it.
 */
export function focusComposerWhenPageFocused(focusComposer: () => void): void {
  let clicking = false;
  window.addEventListener(
    'pointerdown',
    () => {
      clicking = true;
      setTimeout(() => (clicking = false), 0);
    },
    true,
  );
  window.addEventListener('focus', () => {
    // A click focuses the page between its pointerdown and the timer that pointerdown set.
    if (clicking) return;
    const active = document.activeElement;
    if (!active || active === document.body || active === document.documentElement) focusComposer();
  });
}
