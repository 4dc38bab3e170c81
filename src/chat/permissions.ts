import type { RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk';
import type { WriteConfirmation } from '../agent/confirmWrites';
import type { Thread } from './thread';

const CANCELLED: RequestPermissionResponse = { outcome: { outcome: 'cancelled' } };
const ALLOW_WRITE = 'allow-write';

/**
 * The permission requests of one chat: each shows as a card in the thread until the user
 * answers, the turn ends, or the panel closes (all of which answer it exactly once).
 */
export class PermissionRequests {
  private readonly pending = new Map<string, (r: RequestPermissionResponse) => void>();
  private seq = 0;
  private writes = 0;

  constructor(private readonly thread: Thread) {}

  get size(): number {
    return this.pending.size;
  }

  /**
   * Shows the request. What it says about the tool call (diff, input, locations, kind) is
   * merged into the tool call's entry first, created when the agent did not announce the call:
   * the user must see what they approve, not only a title.
   */
  request(params: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse> {
    const requestId = `perm-${++this.seq}`;
    const toolCall = params.toolCall as RequestPermissionRequest['toolCall'] | undefined;
    const toolCallId = typeof toolCall?.toolCallId === 'string' ? toolCall.toolCallId : '';
    const announced = this.thread.toolEntry(toolCallId)?.title;
    // Through the reducer, so the fields are checked like any update's and only those present change.
    if (toolCallId) this.thread.apply({ ...toolCall, sessionUpdate: 'tool_call_update' });
    const title = toolCall?.title ?? announced ?? 'The agent asks for permission';
    return this.ask(requestId, toolCallId, title, params.options, signal);
  }

  /** Shows the card and resolves with the answer (cancelled when the signal aborts first). */
  private ask(
    requestId: string,
    toolCallId: string,
    title: string,
    options: RequestPermissionRequest['options'],
    signal: AbortSignal,
  ): Promise<RequestPermissionResponse> {
    this.thread.addPermission({ requestId, toolCallId, title, options });
    return new Promise((resolve) => {
      const finish = (r: RequestPermissionResponse) => {
        if (!this.pending.delete(requestId)) return;
        this.thread.resolvePermission(
          requestId,
          r.outcome.outcome === 'selected' ? { optionId: r.outcome.optionId } : 'cancelled',
        );
        resolve(r);
      };
      this.pending.set(requestId, finish);
      signal.addEventListener('abort', () => finish(CANCELLED), { once: true });
      if (signal.aborted) finish(CANCELLED);
    });
  }

  /**
   * A write to a file that makes tools run code (the client's own question, not the agent's): the
   * change shows as an edit with its diff, and a permission card asks. True only for Allow.
   */
  async confirmWrite(request: WriteConfirmation, signal: AbortSignal): Promise<boolean> {
    const toolCallId = `acp-write-${++this.writes}`;
    const { realPath: path, oldText, newText } = request;
    this.thread.apply({
      sessionUpdate: 'tool_call',
      toolCallId,
      title: `Write ${request.path}`,
      kind: 'edit',
      status: 'pending',
      content: [{ type: 'diff', path, ...(oldText !== undefined ? { oldText } : {}), newText }],
      locations: [{ path }],
    });
    const response = await this.ask(
      `perm-${++this.seq}`,
      toolCallId,
      `Allow the agent to write ${request.path}? It needs your confirmation: ${request.reason}.`,
      [
        { optionId: ALLOW_WRITE, name: 'Allow this write', kind: 'allow_once' },
        { optionId: 'deny', name: 'Do not write', kind: 'reject_once' },
      ],
      signal,
    );
    const allowed = response.outcome.outcome === 'selected' && response.outcome.optionId === ALLOW_WRITE;
    this.thread.apply({ sessionUpdate: 'tool_call_update', toolCallId, status: allowed ? 'completed' : 'failed' });
    return allowed;
  }

  /** The user's choice; `null` answers "cancelled". Unknown or answered requests are ignored. */
  answer(requestId: string, optionId: string | null): void {
    this.pending.get(requestId)?.(optionId === null ? CANCELLED : { outcome: { outcome: 'selected', optionId } });
  }

  /** Answers every pending request with "cancelled" (a cancelled turn, a closed panel, a dead agent). */
  cancelAll(): void {
    for (const finish of [...this.pending.values()]) finish(CANCELLED);
  }
}
