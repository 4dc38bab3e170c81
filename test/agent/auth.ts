// Sign-in of the reference agent, in the three ways real adapters ask for it: an agent-handled
// method (`authenticate`), a terminal method (the client runs this program with `--login`,
// which leaves a marker in the store), and a key read from the environment.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AuthMethod, type ClientCapabilities, RequestError } from '@agentclientprotocol/sdk/unstable';
import type { ServeOptions } from './options';

export const AGENT_METHOD_ID = 'reference-login';
export const TERMINAL_METHOD_ID = 'reference-terminal-login';
export const ENV_METHOD_ID = 'reference-api-key';
export const TERMINAL_META_METHOD_ID = 'reference-cli-login';

const markerPath = (store: string) => join(store, 'signed-in');

/** `--login`: what the terminal method runs. The next agent start on this store is signed in. */
export function login(store: string): void {
  writeFileSync(markerPath(store), new Date().toISOString() + '\n');
}

export class AuthState {
  private authenticated: boolean;

  constructor(
    private readonly options: ServeOptions,
    private readonly env: NodeJS.ProcessEnv,
  ) {
    const byMarker = options.authTerminal || options.authTerminalMeta;
    this.authenticated = !(options.authRequired || byMarker) || (byMarker && existsSync(markerPath(options.store)));
  }

  /** Whether any switch asks for sign-in (then logout is offered too). */
  get enabled(): boolean {
    return (
      this.options.authRequired ||
      this.options.authTerminal ||
      this.options.authTerminalMeta ||
      this.options.authEnv !== undefined
    );
  }

  /** Terminal methods go only to clients that announce `auth.terminal` (a protocol MUST). */
  methods(client: ClientCapabilities | undefined): AuthMethod[] {
    const out: AuthMethod[] = [];
    if (this.options.authRequired)
      out.push({ id: AGENT_METHOD_ID, name: 'Log in', description: 'Any attempt succeeds' });
    if (this.options.authTerminal && client?.auth?.terminal === true) {
      out.push({
        id: TERMINAL_METHOD_ID,
        type: 'terminal',
        name: 'Log in in a terminal',
        description: 'Runs this agent with --login',
        args: ['--login'],
        env: { ACP_REF_LOGIN: '1' },
      });
    }
    if (this.options.authTerminalMeta) {
      // Copilot CLI's shape: no `type`, the command in `_meta`, sent whatever the client announced.
      out.push({
        id: TERMINAL_META_METHOD_ID,
        name: 'Log in with the reference CLI',
        description: 'Run `acp-reference-agent --login` in the terminal',
        _meta: {
          'terminal-auth': {
            command: process.execPath,
            args: [process.argv[1] ?? '', '--store', this.options.store, '--login'],
            label: 'Reference Login',
            // As an agent may set them: the client must show them before anything runs.
            env: { NODE_OPTIONS: '--no-warnings', ACP_REF_LOGIN: 'from the agent' },
          },
        },
      });
    }
    if (this.options.authEnv !== undefined) {
      // A draft method type the SDK's stable schema does not have yet; Codex sends it for its API keys.
      const envMethod = {
        id: ENV_METHOD_ID,
        type: 'env_var',
        name: 'Use an API key',
        description: 'Reads ACP_REF_KEY from the environment',
        vars: [{ name: 'ACP_REF_KEY', label: 'Reference API key' }],
        link: 'https://example.invalid/keys',
      };
      out.push(envMethod as unknown as AuthMethod);
    }
    return out;
  }

  /**
   * Throws -32000 unless signed in; the key check names what is wrong (echoing the key with
   * --echo-key). With --auth-terminal-meta, listing needs no sign-in (as with Copilot CLI).
   */
  require(what: 'list' | 'session' = 'session'): void {
    if (what === 'list' && this.options.authTerminalMeta && !this.options.authRequired && !this.options.authTerminal)
      return this.requireKey();
    this.requireKey();
    if (!this.authenticated) throw RequestError.authRequired();
  }

  private requireKey(): void {
    const key = this.options.authEnv;
    if (key !== undefined && this.env.ACP_REF_KEY !== key) {
      const given = this.env.ACP_REF_KEY;
      // --echo-key: a careless agent names the wrong key in its error text.
      const wrong = this.options.echoKey ? `ACP_REF_KEY ${given ?? ''} is wrong` : 'ACP_REF_KEY is wrong';
      throw RequestError.authRequired(undefined, given ? wrong : 'ACP_REF_KEY is not set');
    }
  }

  authenticate(methodId: string, client: ClientCapabilities | undefined): void {
    const method = this.methods(client).find((m) => m.id === methodId);
    if (!method) throw RequestError.invalidParams({ methodId }, 'unknown auth method');
    // Terminal methods are run by the client, never passed to authenticate.
    if ('type' in method && method.type === 'terminal')
      throw RequestError.invalidParams({ methodId }, 'terminal methods are not authenticated through authenticate');
    // Copilot CLI answers authenticate for its terminal command the way it answers everything else.
    if (methodId === TERMINAL_META_METHOD_ID) throw RequestError.authRequired();
    // The key method checks the environment the client started this process with.
    if (methodId === ENV_METHOD_ID) this.require();
    this.authenticated = true;
  }

  logout(): void {
    this.authenticated = false;
    rmSync(markerPath(this.options.store), { force: true });
  }
}
