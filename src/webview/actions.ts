/**
 * What a control in the page asks for, as a typed value bound to its DOM node. The page's one
 * click listener finds the nearest bound node and switches on `kind`: no action name or
 * argument travels through a `data-*` string, and a kind nobody handles fails the typecheck.
 */
import type { ElicitationOutcome } from '../protocol/entries';

export type PageAction =
  /** A permission card's option; `optionId` null is Dismiss ("cancelled"). */
  | { kind: 'answerPermission'; requestId: string; optionId: string | null }
  /** An elicitation card's Submit / Open, Decline or Cancel. */
  | { kind: 'elicit'; requestId: string; choice: ElicitationOutcome }
  /** A diff's "Open diff": the entry comes from the card the button sits in. */
  | { kind: 'openDiff'; contentIndex: number }
  | { kind: 'openLocation'; path: string; line?: number }
  /** A turn's changes row: the entry comes from the row. */
  | { kind: 'openChanges' }
  | { kind: 'cancelLoad' }
  | { kind: 'retry' }
  | { kind: 'restartAgent' }
  | { kind: 'showLog' }
  /** A header link to the session this one was continued from or in. */
  | { kind: 'openLinkedSession'; agentId: string; sessionId: string }
  | { kind: 'signIn' }
  | { kind: 'jumpToBottom' }
  /** Copies the text of the `.copy-source` in the nearest `.copyable` (a code block, terminal output…). */
  | { kind: 'copyBlock' }
  /** Copies the message the button sits in, as Markdown. */
  | { kind: 'copyMessage' }
  /** The user message's "Restore Files to Before This Message". */
  | { kind: 'restoreFiles' }
  /** The user message's "Fork From Here". */
  | { kind: 'forkHere' }
  /** A queued follow-up's buttons, and its editor's. */
  | { kind: 'editQueued'; id: string }
  | { kind: 'removeQueued'; id: string }
  | { kind: 'sendQueued'; id: string }
  | { kind: 'saveQueued' }
  | { kind: 'cancelQueuedEdit' }
  /** The find bar's buttons. */
  | { kind: 'findStep'; step: 1 | -1 }
  | { kind: 'findClose' }
  /** Quotes the thread's selected text into the composer. */
  | { kind: 'quoteSelection' };

const bound = new WeakMap<Element, PageAction>();

/** Binds `action` to `node`: a click on it or inside it performs the action. */
export function bindAction<T extends Element>(node: T, action: PageAction): T {
  bound.set(node, action);
  return node;
}

/** The action of the nearest bound node at or above `target`, with that node. */
export function actionAt(target: Element | null): { node: HTMLElement; action: PageAction } | undefined {
  for (let node = target; node; node = node.parentElement) {
    const action = bound.get(node);
    if (action) return { node: node as HTMLElement, action };
  }
  return undefined;
}
