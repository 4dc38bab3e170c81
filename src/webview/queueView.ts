/**
 * The follow-ups queued while the agent works, above the composer: each shows its text with
 * Edit and Remove, and Send now when no turn runs (after Stop, the queue waits for the user).
 * The host holds the queue; this draws what it sends and asks it for every change. Editing
 * happens in place and holds the queue while it lasts, so an edited follow-up keeps its turn.
 */
import type { MessageConnection } from 'vscode-jsonrpc';
import {
  removeQueuedRequest,
  sendQueuedRequest,
  updateQueuedRequest,
  type QueueState,
  type QueuedPrompt,
} from '../protocol/messages';
import { bindAction } from './actions';
import { el, icon } from './dom';
import { sendToHost } from './requests';

export class QueueView {
  readonly element = el('div', 'queue');
  private state: QueueState = { items: [], paused: false };
  private idle = false;
  /** The follow-up being edited here, with its editor (kept across redraws). */
  private editing: { id: string; input: HTMLTextAreaElement } | undefined;
  private drawn = '';

  constructor(private readonly connection: MessageConnection) {
    this.element.hidden = true;
    this.element.setAttribute('aria-label', 'Queued messages');
  }

  /** `idle`: no turn runs, so a follow-up can be sent now. */
  update(state: QueueState, idle: boolean): void {
    this.state = state;
    this.idle = idle;
    if (this.editing && !state.items.some((item) => item.id === this.editing!.id)) this.editing = undefined;
    // Drawn again only when what it shows changed (the host's echo of an edit changes nothing here).
    const key = JSON.stringify([state.items.map((i) => [i.id, i.text]), state.paused, idle, this.editing?.id]);
    if (key === this.drawn && (!this.editing || this.editing.input.isConnected)) return;
    this.drawn = key;
    const rows = state.items.map((item, index) => this.row(item, index));
    this.element.replaceChildren(...(rows.length ? [el('div', 'queue-title', this.title())] : []), ...rows);
    this.element.hidden = rows.length === 0;
  }

  edit(id: string): void {
    const item = this.state.items.find((i) => i.id === id);
    if (!item || this.editing) return;
    const input = el('textarea', 'queue-input');
    input.value = item.text;
    input.rows = Math.min(8, item.text.split('\n').length);
    input.setAttribute('aria-label', 'Edit the queued message');
    input.addEventListener('keydown', (event) => {
      if (event.isComposing) return;
      if (event.key === 'Enter' && !event.shiftKey) {
        event.preventDefault();
        this.finishEdit(true);
      } else if (event.key === 'Escape') {
        // Escape leaves the edit; it must not also stop the turn.
        event.preventDefault();
        this.finishEdit(false);
      }
    });
    this.editing = { id, input };
    sendToHost(this.connection, updateQueuedRequest, { id, editing: true });
    this.update(this.state, this.idle);
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  }

  finishEdit(save: boolean): void {
    const editing = this.editing;
    if (!editing) return;
    this.editing = undefined;
    const text = editing.input.value;
    sendToHost(
      this.connection,
      updateQueuedRequest,
      save ? { id: editing.id, text, editing: false } : { id: editing.id, editing: false },
    );
    this.update(this.state, this.idle);
  }

  remove(id: string): void {
    if (this.editing?.id === id) this.editing = undefined;
    sendToHost(this.connection, removeQueuedRequest, { id });
  }

  sendNow(id: string): void {
    sendToHost(this.connection, sendQueuedRequest, { id });
  }

  private title(): string {
    const n = this.state.items.length;
    const what = `${n} queued message${n === 1 ? '' : 's'}`;
    if (this.state.paused) return `${what} — paused after Stop`;
    return this.idle ? what : `${what} — sent when the agent finishes`;
  }

  private row(item: QueuedPrompt, index: number): HTMLElement {
    const row = el('div', `queue-item${item.editing ? ' editing' : ''}`);
    row.append(el('span', 'queue-badge', String(index + 1)));
    if (this.editing?.id === item.id) {
      row.append(
        this.editing.input,
        button('check', 'Save', { kind: 'saveQueued' }),
        button('close', 'Cancel the edit', { kind: 'cancelQueuedEdit' }),
      );
      return row;
    }
    row.append(el('span', 'queue-text', item.text));
    if (this.idle) row.append(button('send', 'Send now', { kind: 'sendQueued', id: item.id }));
    row.append(
      button('edit', 'Edit', { kind: 'editQueued', id: item.id }),
      button('trash', 'Remove', { kind: 'removeQueued', id: item.id }),
    );
    return row;
  }
}

function button(name: string, label: string, action: Parameters<typeof bindAction>[1]): HTMLButtonElement {
  const node = bindAction(el('button', `icon-button queue-${name}`), action);
  node.type = 'button';
  node.title = label;
  node.setAttribute('aria-label', label);
  node.append(icon(name));
  return node;
}
