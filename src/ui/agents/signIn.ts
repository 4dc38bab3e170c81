import * as vscode from 'vscode';
import type { AgentHost, AgentRegistry } from '../../agent/agentHost';
import { describeTerminalLaunch, signInMethods, terminalLaunch, type SignInMethod } from '../../agent/auth';
import { ErrorCodes, ProtocolError } from '../../agent/errors';
import type { Logger } from '../../agent/log';
import { referencedSecrets } from '../../agent/secrets';
import type { AgentConfig } from '../../agent/types';
import { pickAgent } from '../pickers/agentPicker';
import type { OpenSessions } from '../../chat/openSessions';
import { describeError } from '../../app/errorText';
import {
  cannotSignOut,
  noSignInMethod,
  secretStored,
  signedIn,
  signedOut,
  terminalSignInFailed,
  type Confirm,
} from '../messages';
import type { SessionLists } from '../../sessions/sessionLists';
import type { SettingsService } from '../settings';
import type { SignInEnvStore } from '../../app/signInEnv';

export interface SignInDeps {
  agents: AgentRegistry;
  lists: SessionLists;
  sessions: OpenSessions;
  settings: SettingsService;
  secrets: vscode.SecretStorage;
  signInEnv: SignInEnvStore;
  log: Logger;
  /** Asks before a terminal method runs its program, showing all of what will run. */
  confirm: Confirm;
}

/** Key prefix in `SecretStorage`, so our entries never mix with another extension's names. */
const SECRET_PREFIX = 'acp.secret.';
/** Reads `${secret:NAME}` values for the core. */
export function secretLookup(secrets: vscode.SecretStorage): (name: string) => Promise<string | undefined> {
  return async (name) => secrets.get(SECRET_PREFIX + name);
}

/**
 * Signs in to an agent with one of its methods: the user picks by name and description (or a
 * test passes `methodId`). Agent-handled methods call `authenticate` under a cancellable
 * progress; terminal methods run the agent's own program in a terminal, where exit status 0
 * means success, and then restart the agent. Either way, what failed is retried.
 */
export async function signIn(
  deps: SignInDeps,
  host: AgentHost,
  methodId?: string,
  given?: Readonly<Record<string, string>>,
): Promise<boolean> {
  const name = host.config.name;
  const connection = await host.connect();
  const methods = signInMethods(connection.features.authMethods);
  if (methods.length === 0) {
    noSignInMethod(name);
    return false;
  }
  const method = methodId ? methods.find((m) => m.id === methodId) : await pickMethod(name, connection.config, methods);
  if (!method) return false;
  if (method.kind === 'env') {
    if (!(await signInWithEnv(deps, host, method, given))) return false;
  } else if (method.kind === 'agent') {
    await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Signing in to ${name} (${method.name})…`,
        cancellable: true,
      },
      (_, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        return connection.authenticate(method.id, abort.signal);
      },
    );
  } else {
    if (!(await confirmTerminal(deps.confirm, name, connection.config, method))) return false;
    const code = await runInTerminal(name, connection.config, method);
    if (code !== 0) {
      terminalSignInFailed(name, code);
      return false;
    }
    // The agent reads its credentials at start: start it again to see them.
    await host.restart();
  }
  deps.log.info(`[${host.config.id}] signed in with "${method.name}"`);
  await retryAfterSignIn(deps, host);
  signedIn(name);
  return true;
}

/**
 * An `env_var` method: asks for each variable (password-style for secrets), keeps the values in
 * secret storage, restarts the agent with them in its environment, then `authenticate`s with
 * the method (agents such as Codex read the key when asked). False when the user gave up.
 */
async function signInWithEnv(
  deps: SignInDeps,
  host: AgentHost,
  method: SignInMethod,
  given?: Readonly<Record<string, string>>,
): Promise<boolean> {
  const name = host.config.name;
  const values: Record<string, string> = {};
  for (const v of method.vars ?? []) {
    const what = v.label ?? v.name;
    const value = given
      ? (given[v.name] ?? '')
      : await vscode.window.showInputBox({
          title: `Sign in to ${name}: ${method.name}`,
          prompt: `${what} (set as ${v.name} for ${name}; kept in VS Code's secret storage)${method.link ? `. Get it at ${method.link}` : ''}`,
          placeHolder: v.optional ? `${v.name} (optional)` : v.name,
          password: v.secret,
          ignoreFocusOut: true,
          validateInput: (text) => (v.optional || text.trim() ? undefined : `${what} is needed to sign in.`),
        });
    if (value === undefined) return false;
    if (value.trim()) values[v.name] = value.trim();
  }
  await deps.signInEnv.store(host.config.id, values);
  deps.log.info(`[${host.config.id}] sign-in values stored for ${Object.keys(values).join(', ') || 'no variable'}`);
  // The agent reads its environment at start: start it again with the values set.
  await host.restart();
  const connection = await host.connect();
  try {
    await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Signing in to ${name} (${method.name})…`,
        cancellable: true,
      },
      (_, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        return connection.authenticate(method.id, abort.signal);
      },
    );
  } catch (e) {
    // An agent that reads the variables by itself may not take `authenticate` for this method.
    if (!(e instanceof ProtocolError && e.code === ErrorCodes.MethodNotFound)) throw e;
  }
  return true;
}

/** Forgets what an `env_var` sign-in stored for the agent. */
async function forgetSignInEnv(deps: SignInDeps, host: AgentHost): Promise<void> {
  if (await deps.signInEnv.forget(host.config.id)) await host.restart();
}

async function pickMethod(
  name: string,
  config: AgentConfig,
  methods: SignInMethod[],
): Promise<SignInMethod | undefined> {
  const items = methods.map((m) => {
    const launch = m.kind === 'terminal' ? describeTerminalLaunch(config, m) : undefined;
    const env = launch?.agentEnv.map((l) => l.slice(0, l.indexOf('='))) ?? [];
    return {
      label:
        m.kind === 'terminal'
          ? `$(terminal) ${m.name}`
          : m.kind === 'env'
            ? `$(key) ${m.name}`
            : `$(account) ${m.name}`,
      description: m.description,
      detail: launch
        ? `Runs ${launch.commandLine} in a terminal${env.length ? `, with ${env.join(', ')} set by the agent` : ''}`
        : m.kind === 'env'
          ? `Asks for ${(m.vars ?? []).map((v) => v.name).join(', ')}, kept in VS Code's secret storage`
          : undefined,
      method: m,
    };
  });
  return (
    await vscode.window.showQuickPick(items, {
      title: `Sign in to ${name}`,
      placeHolder: 'How do you want to sign in?',
      matchOnDescription: true,
    })
  )?.method;
}

/**
 * A terminal method runs a program the agent names (or the configured one with the agent's
 * arguments), in an environment the agent adds to: `PATH`, `NODE_OPTIONS` or `BASH_ENV` change
 * what actually runs. All of it is shown, and nothing runs until the user says so.
 */
async function confirmTerminal(
  confirm: Confirm,
  name: string,
  config: AgentConfig,
  method: SignInMethod,
): Promise<boolean> {
  const text = describeTerminalLaunch(config, method);
  const detail = [
    `${text.agentProgram ? `Command named by ${name}` : 'Command'}: ${text.commandLine}`,
    text.agentEnv.length
      ? `Environment set by ${name}:\n${text.agentEnv.map((l) => `  ${l}`).join('\n')}`
      : `${name} sets no environment variables.`,
    ...(text.ownEnv.length ? [`Also set from your settings (values not shown): ${text.ownEnv.join(', ')}`] : []),
  ].join('\n\n');
  return confirm(`Sign in to ${name}: run this command in a terminal?`, 'Run in Terminal', detail);
}

/** Runs a terminal method; resolves with the exit code, or undefined when the terminal was closed first. */
function runInTerminal(name: string, config: AgentConfig, method: SignInMethod): Promise<number | undefined> {
  const launch = terminalLaunch(config, method);
  const terminal = vscode.window.createTerminal({
    // The name the agent gave its sign-in terminal ("Copilot Login"), else ours.
    name: method.label ?? `Sign in to ${name}`,
    shellPath: launch.command,
    shellArgs: launch.args,
    env: launch.env,
  });
  terminal.show();
  return new Promise((resolve) => {
    const sub = vscode.window.onDidCloseTerminal((t) => {
      if (t !== terminal) return;
      sub.dispose();
      resolve(t.exitStatus?.code);
    });
  });
}

/** What failed for want of sign-in runs again: the agent's lists and its open chats. */
export async function retryAfterSignIn(deps: Pick<SignInDeps, 'lists' | 'sessions'>, host: AgentHost): Promise<void> {
  const lists = deps.lists.listsOf(host.config.id);
  deps.sessions.retryAfterSignIn(host.config.id);
  await Promise.all(lists.map((l) => (l.state === 'error' ? l.retry() : l.refresh())));
}

/** "ACP: Sign Out", offered for agents that advertise `agentCapabilities.auth.logout`. */
export async function signOut(deps: SignInDeps, host?: AgentHost): Promise<void> {
  host ??= await pickAgent(deps.agents, 'Sign out of which agent?');
  if (!host) return;
  const c = await host.connect();
  if (!c.features.logout) {
    cannotSignOut(host.config.name);
    return;
  }
  await c.logout();
  await forgetSignInEnv(deps, host);
  deps.log.info(`[${host.config.id}] signed out`);
  signedOut(host.config.name);
  await Promise.all(deps.lists.listsOf(host.config.id).map((l) => l.refresh()));
}

/**
 * "ACP: Set Agent Secret": stores a value for `${secret:NAME}` in VS Code's secret storage
 * (never in settings), then restarts the running agents whose settings use it.
 */
export async function setAgentSecret(deps: SignInDeps): Promise<void> {
  const s = deps.settings.value;
  const used = referencedSecrets([
    ...s.agents.flatMap((a) => Object.values(a.env)),
    ...[...s.mcpServers, ...s.agents.flatMap((a) => a.mcpServers ?? [])].flatMap((m) =>
      ('headers' in m ? m.headers : m.env).map((p) => p.value),
    ),
  ]);
  const other = '$(add) Another name…';
  let secretName: string | undefined = used.length
    ? await vscode.window.showQuickPick([...used, other], {
        placeHolder: 'Which secret? (names used as ${secret:NAME} in your ACP settings)',
      })
    : other;
  if (secretName === other) {
    secretName = await vscode.window.showInputBox({
      prompt: "The secret's name, as used in settings: ${secret:NAME}",
      validateInput: (v) => (/^[A-Za-z0-9._-]+$/.test(v) ? undefined : 'Letters, digits, ".", "_" or "-".'),
    });
  }
  if (!secretName) return;
  const value = await vscode.window.showInputBox({
    prompt: `The value of ${secretName} (stored in VS Code's secret storage)`,
    password: true,
    ignoreFocusOut: true,
  });
  if (value === undefined) return;
  await deps.secrets.store(SECRET_PREFIX + secretName, value);
  deps.log.info(`secret "${secretName}" stored`);
  const needle = `\${secret:${secretName}}`;
  const restart = deps.agents.all.filter(
    (h) => h.state.kind !== 'stopped' && Object.values(h.config.env).some((v) => v.includes(needle)),
  );
  for (const host of restart) {
    await host
      .restart()
      .catch((e) => deps.log.warn(`[${host.config.id}] restart after a secret change failed: ${describeError(e)}`));
    await retryAfterSignIn(deps, host);
  }
  secretStored(
    secretName,
    restart.map((h) => h.config.name),
  );
}
