// A Claude Code transcript store, seeded: what the real adapter lists and loads offline (its
// `claude` process starts without a key as long as nothing is prompted). One JSONL file per
// session under <config>/projects/<the folder, each character not a letter or digit as "-">.
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes a session of `turns` exchanges in `cwd`; returns its id. */
export function seedClaudeSession(configDir: string, cwd: string, turns: Array<[string, string]>): string {
  const sessionId = randomUUID();
  const dir = join(configDir, 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'));
  mkdirSync(dir, { recursive: true });
  const lines: unknown[] = [];
  let parentUuid: string | null = null;
  const at = (i: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString();
  const common = { isSidechain: false, userType: 'external', cwd, sessionId, version: '2.0.0', gitBranch: '' };
  turns.forEach(([asked, answered], i) => {
    const user = randomUUID();
    lines.push({
      ...common,
      parentUuid,
      type: 'user',
      message: { role: 'user', content: asked },
      uuid: user,
      timestamp: at(2 * i),
    });
    const reply = randomUUID();
    lines.push({
      ...common,
      parentUuid: user,
      type: 'assistant',
      message: {
        id: `msg_${i}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: answered }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      },
      requestId: `req_${i}`,
      uuid: reply,
      timestamp: at(2 * i + 1),
    });
    parentUuid = reply;
  });
  writeFileSync(join(dir, `${sessionId}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return sessionId;
}
