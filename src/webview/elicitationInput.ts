/**
 * The user's side of elicitation cards: keeps what is typed (in {@link ElicitationForms}, since
 * the thread re-renders cards), submits with Enter as any form does, and sends an answer once
 * the form is valid. The buttons wait for the host; a refused or unopened answer makes the card
 * live again.
 */
import type { MessageConnection } from 'vscode-jsonrpc';
import type { ElicitationOutcome, PanelEntry } from '../protocol/entries';
import { answerElicitationRequest } from '../protocol/messages';
import { ElicitationForms } from './elicitationForms';
import { ELICIT_ACCEPT_SELECTOR } from './render/elicitation';

export class ElicitationInput {
  readonly forms: ElicitationForms;

  /**
   * `entries` reads the thread as it is now; `pending` holds the requests answered here and not
   * yet confirmed; `changed` re-renders an entry.
   */
  constructor(
    root: HTMLElement,
    private readonly connection: MessageConnection,
    private readonly entries: () => readonly PanelEntry[],
    private readonly pending: Set<string>,
    private readonly changed: (index: number) => void,
  ) {
    this.forms = new ElicitationForms(pending);
    root.addEventListener('input', (event) => this.input(event));
    root.addEventListener('change', (event) => this.input(event));
    root.addEventListener('keydown', (event) => this.key(event));
  }

  /** A card's button: check the form, then send the answer; the buttons wait for the host. */
  answer(button: HTMLElement, index: number, choice: ElicitationOutcome): void {
    const entry = this.entries()[index];
    const card = button.closest<HTMLElement>('.elicitation');
    if (entry?.type !== 'elicitation' || !card || this.pending.has(entry.requestId)) return;
    const params = this.forms.answer(card, entry, choice);
    if (!params) return;
    this.pending.add(entry.requestId);
    this.changed(index);
    const undo = (): void => {
      // Not answered (a URL the user chose not to open, input the host refused): the card is live again.
      this.pending.delete(entry.requestId);
      this.changed(index);
    };
    this.connection.sendRequest(answerElicitationRequest, params).then((answered) => answered || undo(), undo);
  }

  private input(event: Event): void {
    const control = event.target as HTMLElement;
    if (!control.classList?.contains('elicitation-input')) return;
    const entry = this.entries()[Number(control.closest<HTMLElement>('.entry')?.dataset.index)];
    if (entry?.type === 'elicitation') this.forms.changed(control, entry);
  }

  /** In a card, Enter submits (as in any form) and Escape stays there rather than stopping the turn. */
  private key(event: KeyboardEvent): void {
    const control = event.target as HTMLElement;
    if (!control.classList?.contains('elicitation-input') || event.isComposing) return;
    if (event.key === 'Escape') event.preventDefault();
    if (event.key === 'Enter' && control instanceof HTMLInputElement && control.type !== 'checkbox') {
      event.preventDefault();
      control.closest('.elicitation')?.querySelector<HTMLElement>(ELICIT_ACCEPT_SELECTOR)?.click();
    }
  }
}
