/** Small DOM helpers. Text always goes in as textContent: agent text never becomes markup here. */
import { bindAction, type PageAction } from './actions';

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * A codicon (VS Code's icon font, bundled with the webview). Decorative: the text beside it
 * says the same, so screen readers skip it.
 */
export function icon(name: string, extra = ''): HTMLElement {
  const node = el('span', `codicon codicon-${name}${extra ? ` ${extra}` : ''}`);
  node.setAttribute('aria-hidden', 'true');
  return node;
}

/** A chip: an icon and a line of text. */
export function chip(iconName: string, text: string, tag: 'span' | 'a' = 'span'): HTMLElement {
  const node = el(tag, 'chip');
  node.append(icon(iconName), el('span', 'chip-text', text));
  return node;
}

/** A button that performs `action` (see {@link bindAction}). */
export function actionButton(label: string, action: PageAction, className = 'button'): HTMLButtonElement {
  const button = el('button', className, label);
  button.type = 'button';
  return bindAction(button, action);
}

/** A `<select>` option; `title` shows on hover. */
export function option(value: string, label: string, title?: string): HTMLOptionElement {
  const node = el('option', undefined, label);
  node.value = value;
  if (title) node.title = title;
  return node;
}

/** A copy of sanitised content (from `renderMarkdown`) in a fresh element. */
export function contentBlock(className: string, content: DocumentFragment): HTMLElement {
  const node = el('div', className);
  node.append(content.cloneNode(true));
  return node;
}
