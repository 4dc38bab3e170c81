/**
 * The prompt box: Enter sends (while the agent works, it queues the message for when the turn
 * ends), Shift+Enter breaks the line, Escape (or Stop) cancels the turn, `/` at the start
 * completes the agent's commands. The mode and config pickers sit below.
 */
import type { AvailableCommand } from '@agentclientprotocol/sdk';
import { el, icon } from './dom';
import { renderPickers } from './pickers';
import type { ThreadModel } from './model';

export interface ComposerActions {
  send(text: string): void;
  cancel(): void;
  setMode(modeId: string): void;
  setConfig(configId: string, value: string | boolean): void;
  draftChanged(text: string): void;
}

const MAX_COMPLETIONS = 50;
const PLACEHOLDER = 'Message the agent — Enter to send, Shift+Enter for a new line, / for commands';
const QUEUE_PLACEHOLDER = 'Queue a follow-up — it is sent when the agent finishes';

export class Composer {
  readonly element = el('form', 'composer');
  private readonly input = el('textarea', 'composer-input');
  private readonly completions = el('ul', 'completions');
  private readonly pickers = el('div', 'pickers');
  private readonly usage = el('span', 'usage');
  private readonly sendButton = withIcon(el('button', 'button primary send'), 'send', 'Send');
  private readonly stopButton = withIcon(el('button', 'button secondary stop'), 'debug-stop', 'Stop');
  private commands: AvailableCommand[] = [];
  private matches: AvailableCommand[] = [];
  private active = 0;
  private canSend = false;
  private canStop = false;
  private pickersKey = '';

  constructor(
    private readonly actions: ComposerActions,
    draft: string,
  ) {
    this.input.rows = 1;
    this.input.value = draft;
    this.input.placeholder = PLACEHOLDER;
    this.input.setAttribute('aria-label', 'Message');
    this.completions.setAttribute('role', 'listbox');
    this.completions.hidden = true;
    this.sendButton.type = 'submit';
    this.stopButton.type = 'button';
    this.stopButton.hidden = true;
    const toolbar = el('div', 'composer-toolbar');
    toolbar.append(this.pickers, this.usage, this.stopButton, this.sendButton);
    this.element.append(this.completions, this.input, toolbar);

    this.element.addEventListener('submit', (event) => {
      event.preventDefault();
      this.submit();
    });
    this.stopButton.addEventListener('click', () => this.canStop && this.actions.cancel());
    this.input.addEventListener('keydown', (event) => this.keydown(event));
    this.input.addEventListener('input', () => {
      this.autosize();
      this.refreshCompletions();
      this.actions.draftChanged(this.input.value);
    });
    this.input.addEventListener('blur', () => this.closeCompletions());
    // mousedown, not click: keep the focus in the textarea.
    this.completions.addEventListener('mousedown', (event) => {
      const item = (event.target as Element).closest<HTMLElement>('[data-completion]');
      if (!item) return;
      event.preventDefault();
      this.accept(Number(item.dataset.completion));
    });
    this.pickers.addEventListener('change', (event) => {
      const target = event.target as HTMLInputElement | HTMLSelectElement;
      if (target.dataset.mode !== undefined) this.actions.setMode(target.value);
      else if (target.dataset.config) {
        this.actions.setConfig(
          target.dataset.config,
          target instanceof HTMLInputElement && target.type === 'checkbox' ? target.checked : target.value,
        );
      }
    });
    queueMicrotask(() => this.autosize());
  }

  focus(): void {
    this.input.focus();
  }

  /** Adds `text` at the end of the draft (after a blank line), and puts the caret after it. */
  insert(text: string): void {
    const draft = this.input.value;
    this.input.value = draft && !draft.endsWith('\n\n') ? `${draft.replace(/\n?$/, '\n\n')}${text}` : draft + text;
    this.input.focus();
    this.input.setSelectionRange(this.input.value.length, this.input.value.length);
    this.autosize();
    this.actions.draftChanged(this.input.value);
  }

  /**
   * Rebuilds the pickers from the meta at the next update: after a refused change the meta did
   * not change, but a select still shows the value the user picked.
   */
  resetPickers(): void {
    this.pickersKey = '';
  }

  get draft(): string {
    return this.input.value;
  }

  /** Puts back text the user typed in an earlier panel of this session and did not send. */
  restoreDraft(text: string): void {
    this.input.value = text;
    this.autosize();
    this.actions.draftChanged(text);
  }

  update(model: ThreadModel): void {
    const caps = model.capabilities;
    const state = model.status.state;
    const busy = state === 'prompting' || state === 'loading';
    const queueing = state === 'prompting' && !!caps?.canQueue;
    this.canSend = (!!caps?.canPrompt && !busy && state !== 'disconnected' && state !== 'readOnly') || queueing;
    this.canStop = state === 'prompting' && !!caps?.canCancel;
    this.sendButton.disabled = !this.canSend;
    this.sendButton.hidden = this.canStop && !queueing;
    const label = queueing ? 'Queue' : 'Send';
    const text = this.sendButton.querySelector('.button-label');
    if (text && text.textContent !== label) text.textContent = label;
    this.sendButton.title = queueing ? 'Queue the message: it is sent when the agent finishes (Enter)' : 'Send (Enter)';
    // A kept copy nothing attaches: the box says why nothing can be sent.
    const readOnly = model.status.state === 'readOnly' ? model.status.message : undefined;
    this.input.disabled = readOnly !== undefined;
    this.input.placeholder = readOnly ?? (queueing ? QUEUE_PLACEHOLDER : PLACEHOLDER);
    this.stopButton.hidden = !this.canStop;
    this.element.classList.toggle('busy', busy);
    this.commands = model.meta.commands;
    const usage = model.meta.usage;
    this.usage.textContent = usage ? formatUsage(usage.used, usage.size, usage.cost) : '';
    this.usage.title = usage
      ? `${usage.used.toLocaleString()} of ${usage.size.toLocaleString()} tokens in context`
      : '';
    // Pickers are rebuilt only when what they show changed, so an open <select> is not torn down per frame.
    const key = JSON.stringify([caps?.canSetMode, caps?.canSetConfig, model.meta.modes, model.meta.configOptions]);
    if (key !== this.pickersKey) {
      this.pickersKey = key;
      this.pickers.replaceChildren(...renderPickers(model.meta, !!caps?.canSetMode, !!caps?.canSetConfig));
    }
    if (!this.completions.hidden) this.refreshCompletions();
  }

  private submit(): void {
    const text = this.input.value;
    if (!this.canSend || text.trim() === '') return;
    this.actions.send(text);
    this.input.value = '';
    this.autosize();
    this.closeCompletions();
    this.actions.draftChanged('');
  }

  private keydown(event: KeyboardEvent): void {
    if (event.isComposing) return;
    const open = !this.completions.hidden;
    if (open && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      this.highlight((this.active + step + this.matches.length) % this.matches.length);
    } else if (open && (event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey) {
      event.preventDefault();
      this.accept(this.active);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      if (open) this.closeCompletions();
      else if (this.canStop) this.actions.cancel();
    } else if (event.key === 'Enter' && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      this.submit();
    }
  }

  /** Completions show while the caret is in a leading `/word`. */
  private refreshCompletions(): void {
    const value = this.input.value;
    const caret = this.input.selectionStart ?? value.length;
    const token = /^\/(\S*)$/.exec(value.slice(0, caret));
    const query = token?.[1].toLowerCase();
    this.matches =
      query === undefined
        ? []
        : this.commands.filter((command) => command.name.toLowerCase().startsWith(query)).slice(0, MAX_COMPLETIONS);
    if (!this.matches.length) {
      this.closeCompletions();
      return;
    }
    this.completions.replaceChildren(
      ...this.matches.map((command, index) => {
        const item = el('li', 'completion');
        item.setAttribute('role', 'option');
        item.dataset.completion = String(index);
        item.append(
          el('span', 'completion-name', `/${command.name}`),
          el('span', 'completion-description', command.description),
        );
        if (command.input?.hint) item.append(el('span', 'completion-hint', command.input.hint));
        return item;
      }),
    );
    this.completions.hidden = false;
    this.highlight(Math.min(this.active, this.matches.length - 1));
  }

  private highlight(index: number): void {
    this.active = index;
    this.completions.querySelectorAll('.completion').forEach((item, i) => {
      item.classList.toggle('active', i === index);
      item.setAttribute('aria-selected', String(i === index));
    });
    this.completions.children[index]?.scrollIntoView({ block: 'nearest' });
  }

  private accept(index: number): void {
    const command = this.matches[index];
    if (!command) return;
    const value = this.input.value;
    const rest = value.replace(/^\/\S*\s?/, '');
    this.input.value = `/${command.name} ${rest}`;
    const caret = command.name.length + 2;
    this.input.setSelectionRange(caret, caret);
    this.closeCompletions();
    this.autosize();
    this.actions.draftChanged(this.input.value);
  }

  private closeCompletions(): void {
    this.completions.hidden = true;
    this.matches = [];
    this.active = 0;
  }

  /** Grows with its content up to a cap (CSS max-height); one layout read per keystroke. */
  private autosize(): void {
    this.input.style.height = 'auto';
    this.input.style.height = `${this.input.scrollHeight}px`;
  }
}

function withIcon<T extends HTMLElement>(node: T, name: string, label: string): T {
  node.append(icon(name), el('span', 'button-label', label));
  return node;
}

function formatUsage(used: number, size: number, cost?: { amount: number; currency: string }): string {
  const percent = size > 0 ? ` (${Math.round((used / size) * 100)}%)` : '';
  const money = cost ? ` · ${cost.amount.toFixed(2)} ${cost.currency}` : '';
  return `${compact(used)} / ${compact(size)} tokens${percent}${money}`;
}

function compact(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(value >= 10_000 ? 0 : 1)}k` : String(value);
}
