/**
 * The elicitations the agent asked of one session (`elicitation/create`), shown as cards in its
 * thread and answered from them. A form's accept carries only content that matches the schema
 * (checked again here, whatever the webview sent); a URL's accept means the user opened it, and
 * `elicitation/complete` later closes the card. Whatever is still pending when the turn is
 * cancelled, the agent goes away or the panel closes is answered "cancel".
 */
import {
  RequestError,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  type ElicitationSchema,
} from '@agentclientprotocol/sdk';
import type { IDisposable } from '../base/lifecycle';
import { formFields, validateForm } from '../protocol/elicitation';
import type { ElicitationOutcome } from '../protocol/entries';
import { parseWebAddress } from '../protocol/webAddress';
import type { Thread } from './thread';

interface Pending {
  mode: 'form' | 'url';
  schema?: unknown;
  url?: string;
  elicitationId?: string;
  finish(response: CreateElicitationResponse): void;
}

export class Elicitations implements IDisposable {
  private readonly pending = new Map<string, Pending>();
  /** URL elicitations by the agent's id, for `elicitation/complete` (kept after the accept). */
  private readonly byElicitationId = new Map<string, string>();
  private seq = 0;

  constructor(private readonly thread: Thread) {}

  /** How many wait for the user. */
  get size(): number {
    return this.pending.size;
  }

  /** Shows the card and resolves with the user's answer (or "cancel" when the agent aborts the request). */
  request(params: CreateElicitationRequest, signal: AbortSignal): Promise<CreateElicitationResponse> {
    const mode = params.mode;
    if (mode !== 'form' && mode !== 'url')
      throw RequestError.invalidParams({ mode }, `elicitation mode "${String(mode).slice(0, 40)}" is not supported`);
    const requestId = `elic-${++this.seq}`;
    const message = typeof params.message === 'string' ? params.message : '';
    const url = mode === 'url' ? String((params as { url?: unknown }).url ?? '') : undefined;
    const schema = mode === 'form' ? (params as { requestedSchema?: ElicitationSchema }).requestedSchema : undefined;
    const elicitationId =
      mode === 'url' ? String((params as { elicitationId?: unknown }).elicitationId ?? '') : undefined;
    this.thread.addElicitation({
      requestId,
      mode,
      message,
      ...(schema ? { schema } : {}),
      ...(url !== undefined ? { url } : {}),
    });
    if (elicitationId) this.byElicitationId.set(elicitationId, requestId);
    return new Promise((resolve) => {
      const finish = (response: CreateElicitationResponse) => {
        if (!this.pending.delete(requestId)) return;
        this.thread.updateElicitation(requestId, { outcome: response.action as ElicitationOutcome });
        if (response.action !== 'accept' && elicitationId) this.byElicitationId.delete(elicitationId);
        signal.removeEventListener('abort', onAbort);
        resolve(response);
      };
      const onAbort = () => finish({ action: 'cancel' });
      this.pending.set(requestId, { mode, schema, url, elicitationId, finish });
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * A pending URL elicitation's address as the card shows it (see `parseWebAddress`), so the UI
   * opens exactly that before accepting; undefined when it is not one that may be opened.
   */
  urlOf(requestId: string): string | undefined {
    const p = this.pending.get(requestId);
    if (p?.mode !== 'url') return undefined;
    const address = parseWebAddress(p.url);
    return address.ok ? address.href : undefined;
  }

  /**
   * Answers a pending request. A form's accept is checked against the schema (types, required
   * fields, options, limits) and refused, returning false, when it does not match.
   */
  answer(requestId: string, action: ElicitationOutcome, values?: Readonly<Record<string, unknown>>): boolean {
    const p = this.pending.get(requestId);
    if (!p) return false;
    if (action !== 'accept') {
      p.finish({ action });
      return true;
    }
    if (p.mode === 'url') {
      // An address that may not be opened cannot be accepted: the user never saw its page.
      if (!parseWebAddress(p.url).ok) return false;
      p.finish({ action: 'accept' });
      return true;
    }
    const { content, errors } = validateForm(formFields(p.schema), values ?? {});
    if (Object.keys(errors).length > 0) return false;
    p.finish({ action: 'accept', content });
    return true;
  }

  /**
   * The agent says a URL interaction finished. The card closes; a request the user never
   * answered is answered "cancel" (they did not act on it here).
   */
  complete(elicitationId: string): boolean {
    const requestId = this.byElicitationId.get(elicitationId);
    if (requestId === undefined) return false;
    this.byElicitationId.delete(elicitationId);
    this.thread.updateElicitation(requestId, { completed: true });
    this.pending.get(requestId)?.finish({ action: 'cancel' });
    return true;
  }

  /** Answers everything pending with "cancel". */
  cancelAll(): void {
    for (const p of [...this.pending.values()]) p.finish({ action: 'cancel' });
  }

  dispose(): void {
    this.cancelAll();
    this.byElicitationId.clear();
  }
}
