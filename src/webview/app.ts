/**
 * The chat webview: applies the host's snapshot and batched changes once per animation frame
 * (see {@link FrameScheduler}), renders through the virtualised thread, and performs what the
 * page's controls ask for ({@link PageAction}) as requests to the host.
 */
import type { MessageConnection, RequestType, RequestType0 } from 'vscode-jsonrpc';
import type { PanelChange } from '../protocol/entries';
import { estimateHeight } from '../protocol/heightShape';
import { panelTargetOf } from '../protocol/panelTarget';
import {
  cancelTurnRequest,
  draftChangedEvent,
  readyRequest,
  sendPromptRequest,
  setConfigOptionRequest,
  setModeRequest,
  type ChatCapabilities,
  type QueueState,
  type SnapshotParams,
} from '../protocol/messages';
import { actionAt, type PageAction } from './actions';
import { emptyText, Header, StatusArea } from './chrome';
import { Composer } from './composer';
import { actionButton, el, icon } from './dom';
import { ElicitationInput } from './elicitationInput';
import { EntryFetcher } from './entryFetch';
import { FindBar, listenForFindKey } from './findBar';
import { FirstScreen } from './firstScreen';
import { FrameScheduler } from './frameScheduler';
import { Highlighter } from './highlighter';
import { readLinks, ThreadModel } from './model';
import { fillThought } from './render/message';
import { updateInPlace } from './render/inPlace';
import { renderEntry } from './render/entry';
import { performAction } from './pageActions';
import { focusComposerWhenPageFocused } from './pageFocus';
import { QueueView } from './queueView';
import { QuoteButton } from './quote';
import { openAnchor, sendToHost } from './requests';
import { ThreadView } from './threadView';
import { UiStateSaver, type UiState, type VsCodeApi } from './uiState';
import { warmUpPage } from './warmUp';

export class ChatApp {
  private readonly model = new ThreadModel();
  private readonly header = new Header();
  private readonly status = new StatusArea();
  private readonly empty = el('div', 'empty');
  private readonly jump = actionButton('', { kind: 'jumpToBottom' }, 'jump');
  private readonly frames = new FrameScheduler(() => this.frame());
  private readonly highlighter: Highlighter;
  private readonly view: ThreadView;
  private readonly composer: Composer;
  private readonly queue: QueueView;
  private readonly find: FindBar;
  /** Words to find from an entry once it is there and whole (a search hit opened). */
  private findAt: { index: number; words: readonly string[] } | undefined;
  private readonly fetcher: EntryFetcher;
  private readonly quote: QuoteButton;
  private readonly saver: UiStateSaver;
  private readonly pending: PanelChange[] = [];
  private readonly pendingAnswers = new Set<string>();
  private readonly elicitations: ElicitationInput;
  private readonly openThoughts: Set<number>;
  /** Raw tool sections the reader opened, as `index:input` / `index:output`. */
  private readonly openRaw = new Set<string>();
  private readonly replaced = new Set<number>();
  /** Messages shown in part, as a frame's share allowed: the next frame shows more. */
  private readonly behind = new Set<number>();
  private chromeDirty = true;
  private snapshots = 0;

  constructor(
    root: HTMLElement,
    private readonly connection: MessageConnection,
    api: VsCodeApi,
    private readonly saved: UiState,
    highlighterUrl?: string,
    /** The hit's message the host painted before this script ran: goes once the find bar shows the hit. */
    private readonly firstScreen = new FirstScreen(),
  ) {
    this.openThoughts = new Set(saved.openThoughts);
    this.highlighter = new Highlighter(highlighterUrl);
    this.elicitations = new ElicitationInput(
      root,
      connection,
      () => this.model.entries,
      this.pendingAnswers,
      (index) => {
        this.view.changed(index);
        this.schedule();
      },
    );
    this.view = new ThreadView(
      {
        count: () => this.model.entries.length,
        render: (index) =>
          renderEntry(this.model.entries[index], index, {
            stream: (i) => this.model.streams.get(i),
            thoughtOpen: (i) => this.openThoughts.has(i),
            rawOpen: (i, which) => this.openRaw.has(`${i}:${which}`),
            pendingAnswers: this.pendingAnswers,
            elicitation: this.elicitations.forms.context,
            codeShown: (i, source) => this.codeShown(i, source),
            estimate: (entry) => estimateHeight(entry, this.view.charsPerLine),
          }),
        update: (index, node) =>
          updateInPlace(
            node,
            this.model.entries[index],
            {
              stream: this.model.streams.get(index),
              finished: this.model.finished.get(index),
              replaced: this.replaced.has(index),
            },
            (html) => this.codeShown(index, html),
            () => this.behind.add(index),
          ),
        estimate: (index, charsPerLine) => estimateHeight(this.model.entries[index], charsPerLine),
      },
      () => this.schedule(),
      (stick) => {
        this.jump.hidden = stick;
        this.saver.saveSoon();
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
          this.saver.saveSoon();
          // Each change, not on a timer: closing the panel tears the page down at once.
          void this.connection.sendNotification(draftChangedEvent, { text });
        },
      },
      saved.draft,
    );
    this.queue = new QueueView(connection);
    this.find = new FindBar({
      entries: () => this.model.entries,
      view: this.view,
      expand: (index) => this.expand(index),
      closed: () => this.composer.focus(),
    });
    this.fetcher = new EntryFetcher(
      connection,
      () => this.model.entries,
      () => this.schedule(),
      this.view.element,
    );
    this.saver = new UiStateSaver(api, () => this.uiState());
    this.jump.title = 'Scroll to the latest message';
    this.jump.setAttribute('aria-label', this.jump.title);
    this.jump.append(icon('arrow-down'));
    this.jump.hidden = true;
    const main = el('main', 'main');
    this.quote = new QuoteButton(this.view.element, main);
    main.append(this.find.element, this.view.element, this.empty, this.jump, this.quote.element);
    root.append(this.header.element, main, this.status.element, this.queue.element, this.composer.element);
    root.addEventListener('click', (event) => this.click(event));
    // Middle-click would open a link in a new browsing context: never from the webview.
    root.addEventListener('auxclick', (event) => (event.target as Element).closest('a') && event.preventDefault());
    root.addEventListener('toggle', (event) => this.toggled(event), true);
    // Escape stops the turn from anywhere in the panel; the composer and the cards handle their own first.
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
    this.view.element.addEventListener('scroll', () => this.saver.saveSoon(), { passive: true });
    listenForFindKey(() => this.find.open());
    focusComposerWhenPageFocused(() => this.composer.focus());
  }

  /**
   * Asks the host for the thread, at the entry the reader was at when the panel was last shown;
   * the page's first-use costs (focusing the composer among them) are paid while it answers.
   */
  ready(): void {
    const at = this.saved.anchor?.index;
    this.connection
      .sendRequest(readyRequest, at === undefined ? {} : { at })
      .catch((error: unknown) => console.warn('acp webview: ready failed', error));
    warmUpPage(() => this.composer.focus());
  }

  /** "ACP: Focus Chat Input". */
  focusInput(): void {
    this.composer.focus();
  }

  snapshot(params: SnapshotParams): void {
    performance.mark('acp.snapshot');
    // A draft kept from when this session's panel was last closed.
    if (params.draft && !this.composer.draft) this.composer.restoreDraft(params.draft);
    // Changes queued before a snapshot belong to the old picture.
    this.pending.length = 0;
    this.replaced.clear();
    this.openRaw.clear();
    this.elicitations.forms.clear();
    const anchor = this.snapshots++ === 0 ? this.saved.anchor : this.view.currentAnchor();
    this.model.reset(params);
    this.fetcher.reset();
    this.view.reset(anchor);
    this.saver.saveSoon();
    this.chromeDirty = true;
    this.schedule();
  }

  changed(changes: PanelChange[]): void {
    for (const change of changes) this.pending.push(change);
    this.schedule();
  }

  capabilitiesChanged(capabilities: ChatCapabilities): void {
    this.model.capabilities = capabilities;
    // A new session gets its id here: remember it so a reloaded window can reopen the panel.
    this.saver.saveSoon();
    this.chromeDirty = true;
    this.schedule();
  }

  linksChanged(links: unknown): void {
    this.model.links = readLinks(links);
    this.chromeDirty = true;
    this.schedule();
  }

  queueChanged(queue: QueueState): void {
    this.model.queue = queue;
    this.chromeDirty = true;
    this.schedule();
  }

  /** The entry the panel was opened on will not come: the chat shows as it is. */
  revealMissed(): void {
    this.firstScreen.drop();
  }

  /**
   * Scrolls to an entry once the changes that add it are applied (the next frame); with
   * `words`, the find bar then finds them from that entry on and highlights them, once the
   * entry is whole (far from the end of a long thread it is a stub until the scroll fetches it).
   */
  revealEntry(index: number, words: readonly string[] = []): void {
    performance.mark('acp.reveal');
    this.view.revealWhenThere(index);
    this.findAt = words.length ? { index, words } : undefined;
    this.schedule();
  }

  private schedule(): void {
    this.frames.schedule();
  }

  private frame(): void {
    if (this.pending.length) {
      const touched = this.model.apply(this.pending.splice(0));
      if (touched.cleared) {
        // Nothing rendered belongs to the new thread: drop every node and height, follow the end.
        this.replaced.clear();
        this.pendingAnswers.clear();
        this.openRaw.clear();
        this.elicitations.forms.clear();
        this.fetcher.reset();
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
          this.elicitations.forms.forget(entry.requestId);
        }
      }
      if (touched.meta || touched.status) this.chromeDirty = true;
      this.find.threadChanged();
    }
    const findAt = this.findAt;
    // Found in a stub, the words would match nothing there, and the find bar would then mark no
    // match as the current one ("? of 2"), nor highlight any until its next search.
    if (findAt && this.model.entries.length > findAt.index && this.model.entries[findAt.index]!.type !== 'stub') {
      this.findAt = undefined;
      this.find.showAt(findAt.index, findAt.words, () => this.firstScreen.drop());
    }
    const replaying = this.model.status.state === 'loading' && this.view.sticking;
    if (this.frames.repaintDue(replaying)) {
      for (const index of this.behind) this.view.changed(index);
      this.behind.clear();
      this.view.frame(replaying);
      const { from, to } = this.view.rendered;
      const idle = this.model.status.state !== 'loading' && this.pending.length === 0;
      this.fetcher.rendered(from, to, this.view.sticking, idle);
      this.find.paint();
      this.replaced.clear();
      for (const index of this.model.finished.keys()) if (!this.behind.has(index)) this.model.finished.delete(index);
      if (this.behind.size) this.schedule();
    }
    if (this.chromeDirty) {
      this.chromeDirty = false;
      this.header.update(this.model);
      document.body.classList.toggle('can-restore', !!this.model.capabilities?.canRestore);
      document.body.classList.toggle('can-fork', !!this.model.capabilities?.canFork);
      this.status.update(this.model);
      this.composer.update(this.model);
      this.queue.update(this.model.queue, this.model.status.state === 'idle' && !!this.model.capabilities?.canPrompt);
    }
    const empty = this.model.entries.length === 0 ? emptyText(this.model) : '';
    this.empty.textContent = empty;
    this.empty.hidden = empty === '';
  }

  private click(event: MouseEvent): void {
    const target = event.target as Element;
    const bound = actionAt(target);
    if (bound) {
      event.preventDefault();
      this.perform(bound.action, bound.node);
      return;
    }
    const anchor = target.closest('a');
    if (!anchor) return;
    event.preventDefault();
    openAnchor(this.connection, anchor);
  }

  private perform(action: PageAction, node: HTMLElement): void {
    performAction(action, node, {
      connection: this.connection,
      model: this.model,
      view: this.view,
      composer: this.composer,
      queue: this.queue,
      find: this.find,
      quote: this.quote,
      elicitations: this.elicitations,
      pendingAnswers: this.pendingAnswers,
      schedule: () => this.schedule(),
    });
  }

  /** Code in a finished rendering is highlighted off the rendering path, then the entry is shown again. */
  private codeShown(index: number, source: DocumentFragment): void {
    this.highlighter.request(
      source,
      () => {
        this.view.changed(index);
        this.schedule();
      },
      () => this.view.nodeOf(index) !== undefined,
    );
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
      fillThought(details, entry, this.model.streams.get(index), (source) => this.codeShown(index, source));
    } else {
      this.openThoughts.delete(index);
    }
    this.saver.saveSoon();
  }

  /** A find match in a collapsed thought: the thought opens, as a click on it would. */
  private expand(index: number): void {
    if (this.model.entries[index]?.type !== 'thought' || this.openThoughts.has(index)) return;
    this.openThoughts.add(index);
    this.view.changed(index);
    this.schedule();
    this.saver.saveSoon();
  }

  /** The agent refused a mode or option: show its current value again (the host said why in the thread). */
  private pickerRefused(): void {
    this.composer.resetPickers();
    this.chromeDirty = true;
    this.schedule();
  }

  private request<P>(
    type: RequestType<P, void, void> | RequestType0<void, void>,
    params?: P,
    failed?: () => void,
  ): void {
    sendToHost(this.connection, type, params, failed);
  }

  private uiState(): UiState {
    const state: UiState = { draft: this.composer.draft, openThoughts: [...this.openThoughts] };
    const caps = this.model.capabilities;
    const target = caps && panelTargetOf(caps, this.model.meta.title);
    if (target) state.target = target;
    const anchor = this.view.currentAnchor();
    if (anchor) state.anchor = anchor;
    return state;
  }
}
