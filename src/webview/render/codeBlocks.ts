/**
 * Code blocks read like code: each `<pre>` of rendered Markdown gets a header with its language
 * (as the fence named it) and a Copy button. Added to each rendered copy, after cloning: the
 * button's action is bound to the node, and a clone would not carry it.
 */
import { bindAction } from '../actions';
import { el, icon } from '../dom';
import { codeLanguage } from '../markdown';

/**
 * Wraps every code block under `root` that is not wrapped yet; a copy of one that was (a long
 * message completed in place) gets its button's action again.
 */
export function decorateCodeBlocks(root: ParentNode): void {
  for (const pre of root.querySelectorAll('pre')) {
    const wrapped = pre.parentElement?.classList.contains('code-block') ? pre.parentElement : undefined;
    if (wrapped) {
      const button = wrapped.querySelector('.copy-button');
      if (button) bindAction(button, { kind: 'copyBlock' });
      continue;
    }
    const code = pre.firstElementChild;
    const language = code ? codeLanguage(code) : undefined;
    const block = el('div', 'code-block copyable');
    const header = el('div', 'code-header');
    header.append(el('span', 'code-lang', language ?? ''), copyButton('Copy code'));
    pre.classList.add('copy-source');
    pre.replaceWith(block);
    block.append(header, pre);
  }
}

/**
 * A small Copy button: copies the text of the `.copy-source` in the nearest `.copyable` around
 * it (see the `copyBlock` action).
 */
export function copyButton(label: string): HTMLButtonElement {
  const button = bindAction(el('button', 'icon-button copy-button'), { kind: 'copyBlock' });
  button.type = 'button';
  button.title = label;
  button.setAttribute('aria-label', label);
  button.append(icon('copy'));
  return button;
}

/** Shows that a copy button did its job, for a moment. */
export function showCopied(button: HTMLElement): void {
  const glyph = button.querySelector('.codicon');
  if (!glyph) return;
  glyph.className = 'codicon codicon-check';
  button.classList.add('copied');
  setTimeout(() => {
    glyph.className = 'codicon codicon-copy';
    button.classList.remove('copied');
  }, 1500);
}
