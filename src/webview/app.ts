/**
 * The chat webview: applies the host's snapshot and batched changes once per animation frame,
 * renders through the virtualised thread, and turns clicks and keys into requests to the host.
 */
import type { MessageConnection, RequestType, RequestType0 } from 'vscode-jsonrpc';
import type { ThreadChange } from '../protocol/entries';
import { panelTargetOf } from '../protocol/panelTarget';
import {
  answerElicitationRequest,
  answerPermissionRequest,
  cancelLoadRequest,
  cancelTurnRequest,
  draftChangedEvent,
  openDiffRequest,
  openLinkRequest,
  openLocationRequest,
  restartAgentRequest,
  retryRequest,
  sendPromptRequest,
  setConfigOptionRequest,
  setModeRequest,
  showLogRequest,
  signInRequest,
  type ChatCapabilities,
  type SnapshotParams,
} from '../protocol/messages';
import { emptyText, Header, StatusArea } from './chrome';
import { Composer } from './composer';
import { ElicitationForms } from './elicitationForms';
import { focusComposerWhenPageFocused } from './pageFocus';
import { actionButton, el, icon } from './dom';
import { classifyHref } from './links';
import { ThreadModel } from './model';
import { fillThought, updateStreaming } from './render/message';
import { estimateHeight, renderEntry } from './render/entry';
import { ThreadView } from './threadView';
import type { UiState, VsCodeApi } from './uiState';

/** Frames do not run in a hidden page; this bounds how long changes wait there. */
const FRAME_FALLBACK_MS = 250;
const SAVE_DELAY_MS = 300;
/**
 * While a history replay streams and the view follows it, entries fly past faster than anyone
 * reads; repainting the thread ten times a second instead of every frame saves rendering
 * Markdown for entries that would be pushed out a frame later.
 */
const REPLAY_REPAINT_MS = 100;

export class ChatApp {
  private readonly model = new ThreadModel();
  private readonly header = new Header();
  private readonly status = new StatusArea();
  private readonly empty = el('div', 'empty');
  private readonly jump = actionButton('', 'jumpToBottom', 'jump');
  private readonly view: ThreadView;
  private readonly composer: Composer;
  private readonly pending: ThreadChange[] = [];
  private readonly pendingAnswers = new Set<string>();
  private readonly forms = new ElicitationForms(this.pendingAnswers);
  private readonly openThoughts: Set<number>;
  /** Raw tool sections the reader opened, as `index:input` / `index:output`. */
  private readonly openRaw = new Set<string>();
  private readonly replaced = new Set<number>();
  private frameRequested = false;
  private lastRepaint = -Infinity;
  private repaintTimer: ReturnType<typeof setTimeout> | undefined;
  private chromeDirty = true;
  private snapshots = 0;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    root: HTMLElement,
    private readonly connection: MessageConnection,
    private readonly api: VsCodeApi,
    private readonly saved: UiState,
  ) {
    this.openThoughts = new Set(saved.openThoughts);
    this.view = new ThreadView(
      {
        count: () => this.model.entries.length,
        render: (index) =>
          renderEntry(this.model.entries[index], index, {
            stream: (i) => this.model.streams.get(i),
            thoughtOpen: (i) => this.openThoughts.has(i),
            rawOpen: (i, which) => this.openRaw.has(`${i}:${which}`),
            pendingAnswers: this.pendingAnswers,
            elicitation: this.forms.context,
          }),
        update: (index, node) => this.updateNode(index, node),
        estimate: (index, charsPerLine) => estimateHeight(this.model.entries[index], charsPerLine),
      },
      () => this.schedule(),
      (stick) => {
        this.jump.hidden = stick;
        this.saveSoon();
      },
    );
    this.composer = new Composer(
      {
        send: (text) => {
          // Whoever sends wants to see their message and the answer, even if they had
          // scrolled up to read history.
          this.view.scrollToBottom();
          this.request(sendPromptRequest, { text });
        },
        cancel: () => this.request(cancelTurnRequest),
        setMode: (modeId) => this.request(setModeRequest, { modeId }, () => this.pickerRefused()),
        setConfig: (configId, value) =>
          this.request(setConfigOptionRequest, { configId, value }, () => this.pickerRefused()),
        draftChanged: (text) => {
          this.saveSoon();
          // Each change, not on a timer: closing the panel tears the page down at once.
          void this.connection.sendNotification(draftChangedEvent, { text });
        },
      },
      saved.draft,
    );
    this.jump.title = 'Scroll to the latest message';
    this.jump.setAttribute('aria-label', this.jump.title);
    this.jump.append(icon('arrow-down'));
    this.jump.hidden = true;
    const main = el('main', 'main');
    main.append(this.view.element, this.empty, this.jump);
    root.append(this.header.element, main, this.status.element, this.composer.element);
    root.addEventListener('click', (event) => this.click(event));
    // Middle-click would open a link in a new browsing context: never from the webview.
    root.addEventListener('auxclick', (event) => (event.target as Element).closest('a') && event.preventDefault());
    root.addEventListener('toggle', (event) => this.toggled(event), true);
    root.addEventListener('input', (event) => this.cardInput(event));
    root.addEventListener('change', (event) => this.cardInput(event));
    root.addEventListener('keydown', (event) => this.cardKey(event));
    // Escape stops the turn from anywhere in the panel; the composer handles its own first.
    document.addEventListener('keydown', (event) => {
      if (
        event.key === 'Escape' &&
        !event.defaultPrevented &&
        this.model.status.state === 'prompting' &&
        this.model.capabilities?.canCancel
      ) {
        this.request(cancelTurnRequest);
      }
    });
    this.view.element.addEventListener('scroll', () => this.saveSoon(), { passive: true });
    // VS Code tears a hidden webview down; a save still waiting for its timer would lose the
    // last keystrokes. Both events come before the page goes.
    document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && this.saveNow());
    window.addEventListener('pagehide', () => this.saveNow());
    this.composer.focus();
    focusComposerWhenPageFocused(() => this.composer.focus());
  }

  /** "ACP: Focus Chat Input". */
  focusInput(): void {
    this.composer.focus();
  }

  snapshot(params: SnapshotParams): void {
    // A draft kept from when this session's panel was last closed.
    if (params.draft && !this.composer.draft) this.composer.restoreDraft(params.draft);
    // Changes queued before a snapshot belong to the old picture.
    this.pending.length = 0;
    this.replaced.clear();
    this.openRaw.clear();
    this.forms.clear();
    const anchor = this.snapshots++ === 0 ? this.saved.anchor : this.view.currentAnchor();
    this.model.reset(params);
    this.view.reset(anchor);
    this.saveSoon();
    this.chromeDirty = true;
    this.schedule();
  }

  changed(changes: ThreadChange[]): void {
    for (const change of changes) this.pending.push(change);
    this.schedule();
  }

  capabilitiesChanged(capabilities: ChatCapabilities): void {
    this.model.capabilities = capabilities;
    // A new session gets its id here: remember it so a reloaded window can reopen the panel.
    this.saveSoon();
    this.chromeDirty = true;
    this.schedule();
  }

  private schedule(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    const run = (): void => {
      clearTimeout(timer);
      cancelAnimationFrame(frame);
      this.frameRequested = false;
      this.frame();
    };
    const timer = setTimeout(run, FRAME_FALLBACK_MS);
    const frame = requestAnimationFrame(run);
  }

  private frame(): void {
    if (this.pending.length) {
      const touched = this.model.apply(this.pending.splice(0));
      if (touched.cleared) {
        // Nothing rendered belongs to the new thread: drop every node and height, follow the end.
        this.replaced.clear();
        this.pendingAnswers.clear();
        this.openRaw.clear();
        this.forms.clear();
        this.view.reset();
      }
      if (touched.added) this.view.appended();
      for (const index of touched.appended) this.view.changed(index);
      for (const index of touched.replaced) {
        this.replaced.add(index);
        this.view.changed(index);
        const entry = this.model.entries[index];
        if (entry.type === 'permission') this.pendingAnswers.delete(entry.requestId);
        if (entry.type === 'elicitation' && (entry.outcome !== undefined || entry.completed)) {
          this.pendingAnswers.delete(entry.requestId);
          this.forms.forget(entry.requestId);
        }
      }
      if (touched.meta || touched.status) this.chromeDirty = true;
    }
    const now = performance.now();
    const wait =
      this.model.status.state === 'loading' && this.view.sticking ? this.lastRepaint + REPLAY_REPAINT_MS - now : 0;
    if (wait > 0) {
      this.repaintTimer ??= setTimeout(() => {
        this.repaintTimer = undefined;
        this.schedule();
      }, wait);
    } else {
      this.lastRepaint = now;
      this.view.frame();
      this.replaced.clear();
    }
    if (this.chromeDirty) {
      this.chromeDirty = false;
      this.header.update(this.model);
      this.status.update(this.model);
      this.composer.update(this.model);
    }
    const empty = this.model.entries.length === 0 ? emptyText(this.model) : '';
    this.empty.textContent = empty;
    this.empty.hidden = empty === '';
  }

  /** A streaming message is brought up to date in place; anything else renders anew. */
  private updateNode(index: number, node: HTMLElement): boolean {
    const stream = this.model.streams.get(index);
    if (!stream || this.replaced.has(index)) return false;
    const body = node.querySelector<HTMLElement>('.md-streaming');
    if (body) {
      updateStreaming(body, stream);
      return true;
    }
    const details = node.querySelector('details');
    return !!details && !details.open;
  }

  private click(event: MouseEvent): void {
    const target = event.target as Element;
    const action = target.closest<HTMLElement>('[data-action]');
    if (action) {
      event.preventDefault();
      this.action(action);
      return;
    }
    const anchor = target.closest('a');
    if (!anchor) return;
    event.preventDefault();
    const link = classifyHref(anchor.getAttribute('href'));
    if (link?.kind === 'link') this.request(openLinkRequest, { href: link.href });
    else if (link?.kind === 'location')
      this.request(
        openLocationRequest,
        link.line === undefined ? { path: link.path } : { path: link.path, line: link.line },
      );
  }

  private action(node: HTMLElement): void {
    const data = node.dataset;
    const entryIndex = Number(node.closest<HTMLElement>('.entry')?.dataset.index);
    switch (data.action) {
      case 'answer': {
        if (!data.request || this.pendingAnswers.has(data.request)) return;
        this.pendingAnswers.add(data.request);
        if (Number.isInteger(entryIndex)) this.view.changed(entryIndex);
        this.schedule();
        this.request(answerPermissionRequest, { requestId: data.request, optionId: data.option ?? null });
        break;
      }
      case 'elicit':
        this.elicit(node, entryIndex);
        break;
      case 'openDiff':
        if (Number.isInteger(entryIndex))
          this.request(openDiffRequest, { entryIndex, contentIndex: Number(data.content) });
        break;
      case 'openLocation':
        if (data.path)
          this.request(
            openLocationRequest,
            data.line ? { path: data.path, line: Number(data.line) } : { path: data.path },
          );
        break;
      case 'cancelLoad':
        this.request(cancelLoadRequest);
        break;
      case 'retry':
        this.request(retryRequest);
        break;
      case 'restartAgent':
        this.request(restartAgentRequest);
        break;
      case 'showLog':
        this.request(showLogRequest);
        break;
      case 'signIn':
        this.request(signInRequest);
        break;
      case 'jumpToBottom':
        this.view.scrollToBottom();
        break;
    }
  }

  /** A card's button: check the form, then send the answer; the buttons wait for the host. */
  private elicit(node: HTMLElement, index: number): void {
    const entry = this.model.entries[index];
    const card = node.closest<HTMLElement>('.elicitation');
    const choice = node.dataset.choice;
    if (entry?.type !== 'elicitation' || !card || this.pendingAnswers.has(entry.requestId)) return;
    if (choice !== 'accept' && choice !== 'decline' && choice !== 'cancel') return;
    const params = this.forms.answer(card, entry, choice);
    if (!params) return;
    this.pendingAnswers.add(entry.requestId);
    this.view.changed(index);
    this.schedule();
    const undo = (): void => {
      // Not answered (a URL the user chose not to open, input the host refused): the card is live again.
      this.pendingAnswers.delete(entry.requestId);
      this.view.changed(index);
      this.schedule();
    };
    this.connection.sendRequest(answerElicitationRequest, params).then((answered) => answered || undo(), undo);
  }

  private cardInput(event: Event): void {
    const control = event.target as HTMLElement;
    if (!control.classList?.contains('elicitation-input')) return;
    const entry = this.model.entries[Number(control.closest<HTMLElement>('.entry')?.dataset.index)];
    if (entry?.type === 'elicitation') this.forms.changed(control, entry);
  }

  /** In a card, Enter submits (as in any form) and Escape stays there rather than stopping the turn. */
  private cardKey(event: KeyboardEvent): void {
    const control = event.target as HTMLElement;
    if (!control.classList?.contains('elicitation-input') || event.isComposing) return;
    if (event.key === 'Escape') event.preventDefault();
    if (event.key === 'Enter' && control instanceof HTMLInputElement && control.type !== 'checkbox') {
      event.preventDefault();
      control.closest('.elicitation')?.querySelector<HTMLElement>('[data-choice="accept"]')?.click();
    }
  }

  private toggled(event: Event): void {
    const details = event.target;
    if (!(details instanceof HTMLDetailsElement)) return;
    if (details.classList.contains('tool-raw')) {
      const key = `${details.closest<HTMLElement>('.entry')?.dataset.index}:${details.dataset.raw}`;
      if (details.open) this.openRaw.add(key);
      else this.openRaw.delete(key);
      return;
    }
    if (!details.classList.contains('msg-thought')) return;
    const index = Number(details.closest<HTMLElement>('.entry')?.dataset.index);
    const entry = this.model.entries[index];
    if (!entry || entry.type !== 'thought') return;
    if (details.open) {
      this.openThoughts.add(index);
      fillThought(details, entry, this.model.streams.get(index));
    } else {
      this.openThoughts.delete(index);
    }
    this.saveSoon();
  }

  /** The agent refused a mode or option: show its current value again (the host said why in the thread). */
  private pickerRefused(): void {
    this.composer.resetPickers();
    this.chromeDirty = true;
    this.schedule();
  }

  /** Fire and forget: the host reports failures through the thread; `failed` undoes what the page showed early. */
  private request<P>(
    type: RequestType<P, void, void> | RequestType0<void, void>,
    params?: P,
    failed?: () => void,
  ): void {
    const sent =
      params === undefined
        ? this.connection.sendRequest(type as RequestType0<void, void>)
        : this.connection.sendRequest(type as RequestType<P, void, void>, params);
    sent.catch((error: unknown) => {
      console.warn(`acp webview: ${type.method} failed`, error);
      failed?.();
    });
  }

  private saveSoon(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => this.saveNow(), SAVE_DELAY_MS);
  }

  private saveNow(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    const state: UiState = { draft: this.composer.draft, openThoughts: [...this.openThoughts] };
    const caps = this.model.capabilities;
    const target = caps && panelTargetOf(caps, this.model.meta.title);
    if (target) state.target = target;
    const anchor = this.view.currentAnchor();
    if (anchor) state.anchor = anchor;
    this.api.setState(state);
  }
}
