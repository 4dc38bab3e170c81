// The words and summary for an agent's state in the Sessions view, the status bar and the
// agents menu. Plain TypeScript, so it is tested without VS Code.

/** How an agent looks in the view and the status bar. */
export type AgentDisplayState = 'stopped' | 'starting' | 'ready' | 'signIn' | 'failed' | 'startFailed';

/** `atStart`: the failure came before the agent ever answered (it failed to start, not stopped). */
export function displayState(
  kind: 'stopped' | 'starting' | 'ready' | 'failed' | string,
  needsSignIn: boolean,
  atStart = false,
): AgentDisplayState {
  if (needsSignIn && kind === 'ready') return 'signIn';
  if (kind === 'failed' && atStart) return 'startFailed';
  if (kind === 'starting' || kind === 'ready' || kind === 'failed') return kind;
  return 'stopped';
}

/** The status bar's one line over every agent: what needs the user first, then what is running. */
export function summarize(agents: readonly { name: string; state: AgentDisplayState }[]): {
  text: string;
  tooltip: string;
} {
  const tooltip = agents.length
    ? agents.map((a) => `${a.name}: ${STATE_WORDS[a.state]}`).join('\n')
    : 'No agent is configured';
  const of = (s: AgentDisplayState) => agents.filter((a) => a.state === s);
  const signIn = of('signIn');
  if (signIn.length === 1) return { text: `$(account) ACP: sign in to ${signIn[0]!.name}`, tooltip };
  if (signIn.length > 1) return { text: `$(account) ACP: ${signIn.length} need sign-in`, tooltip };
  if (of('startFailed').length) return { text: `$(error) ACP: ${of('startFailed').length} failed to start`, tooltip };
  if (of('failed').length) return { text: `$(error) ACP: ${of('failed').length} stopped`, tooltip };
  if (of('starting').length) return { text: '$(loading~spin) ACP: starting…', tooltip };
  const ready = of('ready').length;
  return { text: ready ? `$(hubot) ACP: ${ready} ready` : '$(hubot) ACP', tooltip };
}

export const STATE_WORDS: Record<AgentDisplayState, string> = {
  stopped: 'not running',
  starting: 'starting…',
  ready: 'ready',
  signIn: 'needs sign-in',
  failed: 'stopped',
  startFailed: 'failed to start',
};
