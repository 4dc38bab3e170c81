/**
 * The panel around the thread: the title bar at the top, the status line and banners above
 * the composer (loading progress with Cancel, the working spinner, errors with Retry and Show
 * Log, a dead agent with Restart), and the empty-state text.
 */
import { bindAction } from './actions';
import { actionButton, chip, el, icon } from './dom';
import type { LoadingPhase } from '../protocol/entries';
import type { ThreadModel } from './model';
import { duration } from '../protocol/duration';

export class Header {
  readonly element = el('header', 'header');
  private readonly title = el('div', 'title');
  private readonly subtitle = el('div', 'subtitle');
  private readonly links = el('div', 'session-links');
  private linksKey = '';

  constructor() {
    this.element.append(this.title, this.subtitle, this.links);
  }

  update(model: ThreadModel): void {
    const caps = model.capabilities;
    // Before the first snapshot nothing is known: an empty title, not "Untitled session".
    const fallback = !caps
      ? ''
      : caps.history === 'new'
        ? 'New session'
        : `Untitled session · ${caps.sessionId.slice(0, 8)}`;
    const agentTitle = model.meta.title?.trim() || fallback;
    const title = model.meta.name?.trim() || agentTitle;
    this.title.textContent = title;
    // A name the user gave: the agent still knows the session by its own title.
    this.title.title = title === agentTitle ? title : `${title}\nThe agent knows it as “${agentTitle}”.`;
    const active = caps?.activeMs ? `${duration(caps.activeMs)} active` : '';
    this.subtitle.textContent = caps ? [caps.agentName, caps.cwd, active].filter(Boolean).join(' · ') : '';
    const key = JSON.stringify(model.links);
    if (key === this.linksKey) return;
    this.linksKey = key;
    this.links.replaceChildren(
      ...model.links.map((l) => {
        const link = chip(l.direction === 'to' ? 'arrow-right' : 'arrow-left', l.text, 'a');
        link.classList.add('session-link');
        link.title = `Open the session ${l.direction === 'to' ? 'this one was continued in' : 'this one continues'}`;
        (link as HTMLAnchorElement).href = '#';
        return bindAction(link, { kind: 'openLinkedSession', agentId: l.agentId, sessionId: l.sessionId });
      }),
    );
  }
}

export class StatusArea {
  readonly element = el('div', 'status-area');
  private key = '';

  update(model: ThreadModel): void {
    const status = model.status;
    // Rebuilt only when what it shows changes: the load counter ticks every frame during a replay.
    const key = JSON.stringify(status) + (model.capabilities?.agentName ?? '');
    if (key === this.key) return;
    this.key = key;
    switch (status.state) {
      case 'idle':
        this.element.replaceChildren();
        break;
      case 'loading':
        this.element.replaceChildren(
          line(
            'status-line loading',
            loadingText(status.phase, status.received, model),
            actionButton('Cancel', { kind: 'cancelLoad' }, 'button link'),
          ),
        );
        break;
      case 'prompting':
        this.element.replaceChildren(line('status-line prompting', 'Working…'));
        break;
      case 'error': {
        const buttons = [actionButton('Show Log', { kind: 'showLog' }, 'button secondary')];
        if (status.canRetry)
          buttons.unshift(
            actionButton('Retry', { kind: 'retry' }, status.signIn ? 'button secondary' : 'button primary'),
          );
        // Signing in is the fix, so it is the first action; the host retries what failed after it.
        if (status.signIn)
          buttons.unshift(
            actionButton(
              `Sign in to ${model.capabilities?.agentName || 'the agent'}`,
              { kind: 'signIn' },
              'button primary',
            ),
          );
        this.element.replaceChildren(banner('banner error', status.message, buttons));
        break;
      }
      case 'disconnected':
        this.element.replaceChildren(
          banner('banner disconnected', status.message || 'The agent is not running.', [
            actionButton('Restart Agent', { kind: 'restartAgent' }, 'button primary'),
            actionButton('Show Log', { kind: 'showLog' }, 'button secondary'),
          ]),
        );
        break;
      case 'readOnly':
        this.element.replaceChildren(banner('banner read-only', status.message, []));
        break;
    }
  }
}

/** Says what the chat waits for: only a history load has updates to count. */
function loadingText(phase: LoadingPhase | undefined, received: number, model: ThreadModel): string {
  switch (phase) {
    case 'connect':
      return `Starting ${model.capabilities?.agentName || 'the agent'}…`;
    case 'new':
      return 'Starting session…';
    case 'resume':
      return 'Resuming…';
    default:
      return `Loading history… ${received.toLocaleString()} updates`;
  }
}

function line(className: string, text: string, ...extra: HTMLElement[]): HTMLElement {
  const node = el('div', className);
  node.setAttribute('role', 'status');
  node.append(icon('loading', 'codicon-modifier-spin'), el('span', 'status-text', text), ...extra);
  return node;
}

function banner(className: string, message: string, buttons: HTMLElement[]): HTMLElement {
  const node = el('div', className);
  node.setAttribute('role', 'alert');
  const actions = el('div', 'banner-actions');
  actions.append(...buttons);
  node.append(el('div', 'banner-message', message), actions);
  return node;
}

/** The text shown over an empty thread. */
export function emptyText(model: ThreadModel): string {
  const caps = model.capabilities;
  // An error or a lost agent is said in the banner: nothing over the thread claims what did not happen.
  if (!caps || ['loading', 'error', 'disconnected', 'readOnly'].includes(model.status.state)) return '';
  if (caps.history === 'resumed') return 'Session resumed. Earlier messages were not replayed.';
  return `Ask ${caps.agentName || 'the agent'} anything.`;
}
