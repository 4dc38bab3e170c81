/**
 * Types of the protocol's unstable session-management methods: `session/set_title`,
 * `session/archive`, `session/unarchive`, `session/fork`, the `archived` filter of
 * `session/list` and the capabilities that advertise them.
 *
 * Types only, on purpose. The SDK's `/unstable` entry brings its own schema, which parses the
 * stable messages too (more update kinds, more fields); the client stays on the stable entry
 * at run time so every stable message parses exactly as before. These requests go out through
 * the stable connection's untyped `request`, which neither checks params nor results, and
 * `validate.ts` checks each result as it checks the others. Lint allows nothing but type
 * imports from `/unstable`.
 */
export type {
  ArchiveSessionRequest,
  ForkSessionRequest,
  ForkSessionResponse,
  SessionArchiveFilter,
  SessionCapabilities as UnstableSessionCapabilities,
  SessionInfo as UnstableSessionInfo,
  SetSessionTitleRequest,
  SetSessionTitleResponse,
  UnarchiveSessionRequest,
} from '@agentclientprotocol/sdk/unstable';
