// Helpers for chat tests against the reference agent in plain Node.
import { existsSync, readFileSync } from 'node:fs';
import { AgentRegistry, type AgentHost, type AgentHostDeps } from '../../src/agent/agentHost';
import type { ClientHandlers } from '../../src/agent/clientApp';
import { MemoryLogger } from '../../src/agent/log';
import type { ChatDeps } from '../../src/chat/attachment';
import type { AgentConfig } from '../../src/agent/types';

/** Every request and notification the reference agent received with `--record`, in order. */
export function recorded(file: string): { method: string; params: Record<string, unknown> }[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { method: string; params: Record<string, unknown> });
}

/** The methods recorded, in order, without `initialize`. */
export function methods(file: string): string[] {
  return recorded(file)
    .map((m) => m.method)
    .filter((m) => m !== 'initialize');
}

export function chatDeps(overrides: Partial<ChatDeps> = {}): ChatDeps & { logger: MemoryLogger } {
  return {
    logger: new MemoryLogger(),
    mcpServers: () => [],
    describeError: (e) => (e instanceof Error ? e.message : String(e)),
    ...overrides,
  } as ChatDeps & {
    logger: MemoryLogger;
  };
}

/** Host deps for tests: quick restarts; the permission handler is one the test sets (or "cancelled"). */
export function hostDeps(
  permissions: { handler?: ClientHandlers['requestPermission'] } = {},
  extra: Omit<ClientHandlers, 'requestPermission'> = {},
): AgentHostDeps {
  return {
    logger: new MemoryLogger(),
    clientInfo: { name: 'test', version: '0' },
    trace: () => 'off',
    handlers: () => ({
      requestPermission: (params, signal) =>
        permissions.handler?.(params, signal) ?? Promise.resolve({ outcome: { outcome: 'cancelled' } }),
      ...extra,
    }),
    restartBaseMs: 50,
  };
}

/** A registry holding one agent, as the extension wires it (chats find the agent through it). */
export function registryWith(config: AgentConfig, deps: AgentHostDeps = hostDeps()): AgentRegistry {
  const registry = new AgentRegistry(deps);
  registry.update([config], config.id);
  return registry;
}

export function hostOf(registry: AgentRegistry, id = 'ref'): AgentHost {
  const host = registry.get(id);
  if (!host) throw new Error(`no agent ${id}`);
  return host;
}

/** Registries a suite makes (call it inside `describe`): each is stopped and disposed after each test. */
export function useRegistries(): AgentRegistry[] {
  const registries: AgentRegistry[] = [];
  afterEach(async () => {
    for (const r of registries.splice(0)) {
      await r.stopAll();
      r.dispose();
    }
  });
  return registries;
}
