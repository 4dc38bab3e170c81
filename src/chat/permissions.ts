import type { RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk';
import type { Thread } from './thread';

const CANCELLED: RequestPermissionResponse = { outcome: { outcome: 'cancelled' } };

/**
 * The permission requests of one chat: each shows as a card in the thread until the user
 * answers, the turn ends, or the panel closes (all of which answer it exactly once).
 */
export class PermissionRequests {
  private readonly pending = new Map<string, (r: RequestPermissionResponse) => void>();
  private seq = 0;

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
    this.thread.addPermission({ requestId, toolCallId, title, options: params.options });
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

  /** The user's choice; `null` answers "cancelled". Unknown or answered requests are ignored. */
  answer(requestId: string, optionId: string | null): void {
    this.pending.get(requestId)?.(optionId === null ? CANCELLED : { outcome: { outcome: 'selected', optionId } });
  }

  /** Answers every pending request with "cancelled" (a cancelled turn, a closed panel, a dead agent). */
  cancelAll(): void {
    for (const finish of [...this.pending.values()]) finish(CANCELLED);
  }
}
