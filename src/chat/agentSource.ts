import type { Event } from '../base/event';
import { AgentHost } from '../agent/agentHost';

/**
 * Where a chat finds its agent: by id, every time. New settings replace an agent's host, so a
 * chat that kept the host it started with would talk to a disposed one ("… was removed").
 * `AgentRegistry` is one.
 */
export interface AgentSource {
  /** The agent's host as configured now; undefined once it was removed. */
  get(agentId: string): AgentHost | undefined;
  /** Fires with the host whose state changed (any agent's). */
  readonly onDidChangeState: Event<AgentHost>;
}

/** A source over one host, for callers (and tests) that hold a host rather than the registry. */
export function agentSource(agents: AgentSource | AgentHost): AgentSource {
  if (!(agents instanceof AgentHost)) return agents;
  const host = agents;
  return {
    get: () => (host.isDisposed ? undefined : host),
    onDidChangeState: (listener, thisArgs, disposables) =>
      host.onDidChangeState(() => listener.call(thisArgs, host), undefined, disposables),
  };
}
