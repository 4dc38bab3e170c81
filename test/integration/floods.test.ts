import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestPermissionResponse } from '@agentclientprotocol/sdk';
import type { ClientHandlers } from '../../src/agent/clientApp';
import { AgentConnection } from '../../src/agent/connection';
import { AgentExited } from '../../src/agent/errors';
import { ClientFileSystem } from '../../src/agent/fileSystem';
import { MemoryLogger } from '../../src/agent/log';
import { pinRoots } from '../../src/agent/roots';
import { heldBytes } from '../support/memory';
import { refAgentConfig, useSeededFolder } from '../support/refAgent';
import { waitFor } from '../support/wait';

const clientInfo = { name: 't', version: '0' };
const MiB = 1024 * 1024;

/**
 * Agents that flood the client: stop reading while asking for large files, print text on stdout
 * that the client would answer forever, ask for more than anyone can answer, or hold a line open
 * one byte at a time. The extension host shares its memory with every extension of the window:
 * none of it may grow without bound.
 */
describe('Agents that flood the client', function () {
  this.timeout(60_000);
  const { store, cwd, running } = useSeededFolder<AgentConnection>(3, 1);

  async function start(
    switches: string[],
    logger: MemoryLogger,
    extra: Partial<Parameters<typeof AgentConnection.start>[0]> = {},
    handlers: Partial<ClientHandlers> = {},
  ) {
    const c = await AgentConnection.start({
      config: refAgentConfig(store, switches),
      logger,
      clientInfo,
      handlers: { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }), ...handlers },
      ...extra,
    });
    running.push(c);
    return c;
  }
  const prompt = (c: AgentConnection, sessionId: string, text: string) =>
    c.prompt({ sessionId, prompt: [{ type: 'text', text }] });

  it('closes the connection, saying why, when the agent stops reading while it asks for a large file again and again', async () => {
    const file = join(cwd, 'large.txt');
    writeFileSync(file, 'y'.repeat(MiB));
    const logger = new MemoryLogger();
    const fs = new ClientFileSystem({ rootsFor: () => pinRoots([cwd]), logger });
    const c = await start([], logger, { wire: { maxQueuedBytes: 4 * MiB } }, { fs });
    const { sessionId } = await c.newSession({ cwd, mcpServers: [] });
    await assert.rejects(prompt(c, sessionId, `flood read ${file} 40`), (e: unknown) => {
      assert.ok(e instanceof AgentExited, String(e));
      assert.match(e.message, /Reference Agent stopped reading what the client sends it \(4 MiB were waiting/);
      return true;
    });
    assert.equal(c.isAlive, false, 'the agent was stopped');
    assert.ok(
      logger.lines.some((l) => /error Reference Agent stopped reading/.test(l)),
      logger.lines.join('\n'),
    );
  });

  it('answers only the first line that is not JSON: an agent that prints text for every answer is not answered again', async () => {
    const logger = new MemoryLogger();
    const c = await start(['--stdout-text'], logger);
    // The agent's line after initialize, then its complaint about the one parse-error answer.
    await waitFor('the text and the complaint', () => c.stats.notJson >= 2);
    // Round trips: whatever each side sent before them has been read by the other.
    for (let i = 0; i < 3; i++) await c.listSessions({ cwd });
    assert.equal(c.stats.notJson, 2, `lines that were not JSON: ${c.stats.notJson}`);
    assert.ok(c.isAlive);
  });

  it('answers a bounded number of requests at a time and refuses the rest at once', async () => {
    const logger = new MemoryLogger();
    const waiting: (() => void)[] = [];
    const requestPermission = () =>
      new Promise<RequestPermissionResponse>((resolve) =>
        waiting.push(() => resolve({ outcome: { outcome: 'selected', optionId: 'allow' } })),
      );
    const c = await start([], logger, { wire: { maxRequestsInFlight: 10 } }, { requestPermission });
    const { sessionId } = await c.newSession({ cwd, mcpServers: [] });
    const said: string[] = [];
    c.router.register(sessionId, (n) => {
      if (n.update.sessionUpdate === 'agent_message_chunk' && n.update.content.type === 'text')
        said.push(n.update.content.text);
    });
    const turn = prompt(c, sessionId, 'flood permission 30');
    await waitFor('20 refusals', () => c.stats.refusedRequests === 20);
    assert.equal(waiting.length, 10, 'ten reached the handler');
    for (const answer of waiting) answer();
    assert.equal((await turn).stopReason, 'end_turn');
    assert.deepEqual(said, ['Permission flood: 10 answered, 20 refused.']);
    assert.ok(logger.lines.some((l) => /refused a request from the agent: 10 are being answered/.test(l)));
  });

  it('holds a line written one byte at a time in memory proportional to its length', async () => {
    const logger = new MemoryLogger();
    const c = await start([], logger);
    const { sessionId } = await c.newSession({ cwd, mcpServers: [] });
    const before = heldBytes();
    const bytes = 12_000;
    void prompt(c, sessionId, `unfinished ${bytes}`).catch(() => undefined);
    await waitFor(
      'the unfinished line',
      () => logger.lines.some((l) => l.includes('wrote an unfinished line')),
      50_000,
    );
    const grown = heldBytes() - before;
    // A copy per read cost about 200 bytes per byte (2.4 MB here); the rest is the test's own noise.
    assert.ok(grown < MiB + 2 * bytes, `${(grown / bytes).toFixed(1)} bytes of memory per byte held`);
  });
});
