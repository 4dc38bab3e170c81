import type { AuthMethod, InitializeResponse } from '@agentclientprotocol/sdk';
import type { UnstableSessionCapabilities } from './unstable';

/**
 * What the agent can do, read once after `initialize`. A capability object such as
 * `sessionCapabilities.list` is `{}` when supported and absent or `null` when not.
 */
export interface AgentFeatures {
  readonly load: boolean;
  readonly list: boolean;
  readonly resume: boolean;
  readonly close: boolean;
  readonly delete: boolean;
  readonly additionalDirectories: boolean;
  /** `session/set_title` (unstable): the agent stores names the user gives. */
  readonly title: boolean;
  /** `session/archive`, `session/unarchive` and the `archived` filter of `session/list` (unstable). */
  readonly archive: boolean;
  /** `session/fork` (unstable). */
  readonly fork: boolean;
  readonly mcpHttp: boolean;
  readonly mcpSse: boolean;
  readonly logout: boolean;
  readonly images: boolean;
  readonly embeddedContext: boolean;
  readonly authMethods: readonly AuthMethod[];
  readonly agentName?: string;
  readonly agentVersion?: string;
}

export function readFeatures(init: InitializeResponse): AgentFeatures {
  const caps = init.agentCapabilities ?? {};
  // The stable types do not name the unstable capabilities; the wire carries them all the same.
  const session: UnstableSessionCapabilities = caps.sessionCapabilities ?? {};
  const present = (v: unknown) => v !== undefined && v !== null && v !== false;
  return {
    load: caps.loadSession === true,
    list: present(session.list),
    resume: present(session.resume),
    close: present(session.close),
    delete: present(session.delete),
    additionalDirectories: present(session.additionalDirectories),
    title: present(session.title),
    archive: present(session.archive),
    fork: present(session.fork),
    mcpHttp: caps.mcpCapabilities?.http === true,
    mcpSse: caps.mcpCapabilities?.sse === true,
    logout: present(caps.auth?.logout),
    images: caps.promptCapabilities?.image === true,
    embeddedContext: caps.promptCapabilities?.embeddedContext === true,
    authMethods: Array.isArray(init.authMethods) ? init.authMethods : [],
    agentName: init.agentInfo?.title ?? init.agentInfo?.name ?? undefined,
    agentVersion: init.agentInfo?.version ?? undefined,
  };
}
