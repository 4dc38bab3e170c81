/**
 * What each {@link PageAction} does: most become a request to the host; the rest drive a part of
 * the page (the thread, the composer, the queue, find).
 */
import type { MessageConnection, RequestType, RequestType0 } from 'vscode-jsonrpc';
import {
  answerPermissionRequest,
  cancelLoadRequest,
  copyTextRequest,
  openChangesRequest,
  openDiffRequest,
  openLinkedSessionRequest,
  openLocationRequest,
  restartAgentRequest,
  restoreFilesRequest,
  forkFromHereRequest,
  retryRequest,
  showLogRequest,
  signInRequest,
} from '../protocol/messages';
import type { PageAction } from './actions';
import type { Composer } from './composer';
import type { ElicitationInput } from './elicitationInput';
import type { FindBar } from './findBar';
import type { ThreadModel } from './model';
import type { QueueView } from './queueView';
import { asQuote, type QuoteButton } from './quote';
import { showCopied } from './render/codeBlocks';
import { sendToHost } from './requests';
import type { ThreadView } from './threadView';

/** The parts of the page an action acts on. */
export interface ActionTarget {
  connection: MessageConnection;
  model: ThreadModel;
  view: ThreadView;
  composer: Composer;
  queue: QueueView;
  find: FindBar;
  quote: QuoteButton;
  elicitations: ElicitationInput;
  /** Requests answered here whose answer the host has not confirmed yet. */
  pendingAnswers: Set<string>;
  schedule(): void;
}

/** Performs `action`, asked for by a control at `node`. */
export function performAction(action: PageAction, node: HTMLElement, on: ActionTarget): void {
  const send = <P>(type: RequestType<P, void, void> | RequestType0<void, void>, params?: P): void =>
    sendToHost(on.connection, type, params);
  const copy = (text: string, button: HTMLElement): void => {
    send(copyTextRequest, { text });
    showCopied(button);
  };

  const entryIndex = Number(node.closest<HTMLElement>('.entry')?.dataset.index);
  switch (action.kind) {
    case 'answerPermission': {
      if (on.pendingAnswers.has(action.requestId)) return;
      on.pendingAnswers.add(action.requestId);
      if (Number.isInteger(entryIndex)) on.view.changed(entryIndex);
      on.schedule();
      send(answerPermissionRequest, { requestId: action.requestId, optionId: action.optionId });
      break;
    }
    case 'elicit':
      on.elicitations.answer(node, entryIndex, action.choice);
      break;
    case 'openDiff':
      if (Number.isInteger(entryIndex)) send(openDiffRequest, { entryIndex, contentIndex: action.contentIndex });
      break;
    case 'openChanges':
      if (Number.isInteger(entryIndex)) send(openChangesRequest, { entryIndex });
      break;
    case 'restoreFiles':
      if (Number.isInteger(entryIndex)) send(restoreFilesRequest, { entryIndex });
      break;
    case 'forkHere':
      if (Number.isInteger(entryIndex)) send(forkFromHereRequest, { entryIndex });
      break;
    case 'openLocation':
      send(
        openLocationRequest,
        action.line === undefined ? { path: action.path } : { path: action.path, line: action.line },
      );
      break;
    case 'cancelLoad':
      send(cancelLoadRequest);
      break;
    case 'retry':
      send(retryRequest);
      break;
    case 'restartAgent':
      send(restartAgentRequest);
      break;
    case 'showLog':
      send(showLogRequest);
      break;
    case 'openLinkedSession':
      send(openLinkedSessionRequest, { agentId: action.agentId, sessionId: action.sessionId });
      break;
    case 'signIn':
      send(signInRequest);
      break;
    case 'jumpToBottom':
      on.view.scrollToBottom();
      break;
    case 'copyBlock': {
      const text = node.closest('.copyable')?.querySelector('.copy-source')?.textContent;
      if (text) copy(text, node);
      break;
    }
    case 'quoteSelection': {
      const text = on.quote.selectedText();
      if (!text) break;
      on.composer.insert(asQuote(text));
      window.getSelection()?.removeAllRanges();
      on.quote.hide();
      break;
    }
    case 'findStep':
      on.find.step(action.step);
      break;
    case 'findClose':
      on.find.close();
      break;
    case 'editQueued':
      on.queue.edit(action.id);
      break;
    case 'removeQueued':
      on.queue.remove(action.id);
      break;
    case 'sendQueued':
      on.view.scrollToBottom();
      on.queue.sendNow(action.id);
      break;
    case 'saveQueued':
      on.queue.finishEdit(true);
      break;
    case 'cancelQueuedEdit':
      on.queue.finishEdit(false);
      break;
    case 'copyMessage': {
      const entry = on.model.entries[entryIndex];
      if (entry && 'text' in entry && typeof entry.text === 'string') copy(entry.text, node);
      break;
    }
  }
}
