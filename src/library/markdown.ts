/**
 * A kept transcript as one Markdown document: messages as they were written, thoughts and tool
 * calls as collapsible `<details>`, diffs as fenced `diff` blocks, terminal output and raw
 * values as code blocks. Pure.
 */
import type { ContentBlock, ToolCallContent } from '@agentclientprotocol/sdk';
import type { ThreadEntry, ToolCallEntry } from '../protocol/entries';

export interface ExportHeader {
  title?: string;
  agentName?: string;
  sessionId: string;
  cwd?: string;
  updatedAt?: string;
}

/** Lines of context kept around a diff's change. */
const CONTEXT = 3;

const html = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A fenced block whose fence is longer than any run of backticks inside it. */
export function fence(text: string, lang = ''): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(Math.max(3, longest + 1));
  return `${f}${lang}\n${text.endsWith('\n') ? text : `${text}\n`}${f}`;
}

function lines(text: string): string[] {
  if (text === '') return [];
  const out = text.split(/\r?\n/);
  if (out[out.length - 1] === '') out.pop();
  return out;
}

/**
 * A unified diff of one change: the common lines at both ends are trimmed to a few lines of
 * context and the middle shows as removed then added (a file's new content, with no old text,
 * is all added).
 */
export function unifiedDiff(path: string, oldText: string | null | undefined, newText: string): string {
  const a = lines(oldText ?? '');
  const b = lines(newText);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const from = Math.max(0, start - CONTEXT);
  const tailA = Math.min(a.length, endA + CONTEXT);
  const tailB = Math.min(b.length, endB + CONTEXT);
  const hunk = [
    ...a.slice(from, start).map((l) => ` ${l}`),
    ...a.slice(start, endA).map((l) => `-${l}`),
    ...b.slice(start, endB).map((l) => `+${l}`),
    ...a.slice(endA, tailA).map((l) => ` ${l}`),
  ];
  const header = [
    `--- ${oldText == null ? '/dev/null' : `a/${path}`}`,
    `+++ b/${path}`,
    `@@ -${tailA - from === 0 ? 0 : from + 1},${tailA - from} +${tailB - from === 0 ? 0 : from + 1},${tailB - from} @@`,
  ];
  return fence([...header, ...hunk].join('\n'), 'diff');
}

function block(b: ContentBlock): string {
  switch (b.type) {
    case 'text':
      return b.text;
    case 'image':
    case 'audio':
      return `*(${b.type}, ${b.mimeType})*`;
    case 'resource_link':
      return `[${b.title ?? b.name}](${b.uri})`;
    case 'resource':
      return 'text' in b.resource
        ? `${b.resource.uri}\n\n${fence(b.resource.text)}`
        : `*(embedded ${b.resource.mimeType ?? 'data'}: ${b.resource.uri})*`;
    default:
      return '';
  }
}

function toolContent(c: ToolCallContent, entry: ToolCallEntry): string {
  switch (c.type) {
    case 'content':
      return c.content.type === 'text' ? fence(c.content.text) : block(c.content);
    case 'diff':
      return `\`${c.path}\`\n\n${unifiedDiff(c.path, c.oldText, c.newText)}`;
    case 'terminal': {
      const out = entry.terminalOutput?.[c.terminalId];
      if (!out) return '*(terminal output not kept)*';
      const exit =
        out.exitCode != null ? `\n\nExit code ${out.exitCode}` : out.signal ? `\n\nEnded by ${out.signal}` : '';
      return `${fence(out.truncated ? `…\n${out.output}` : out.output, 'console')}${exit}`;
    }
  }
}

function details(summary: string, body: string): string {
  return `<details>\n<summary>${html(summary)}</summary>\n\n${body.trim()}\n\n</details>`;
}

function tool(e: ToolCallEntry): string {
  const parts = e.content.map((c) => toolContent(c, e));
  if (e.locations.length && !e.content.some((c) => c.type === 'diff'))
    parts.unshift(e.locations.map((l) => `- \`${l.path}${l.line != null ? `:${l.line}` : ''}\``).join('\n'));
  if (e.rawInput !== undefined) parts.push(`Input:\n\n${fence(JSON.stringify(e.rawInput, null, 2) ?? '', 'json')}`);
  if (e.rawOutput !== undefined) parts.push(`Output:\n\n${fence(JSON.stringify(e.rawOutput, null, 2) ?? '', 'json')}`);
  return details(`Tool: ${e.title} (${e.status.replace('_', ' ')})`, parts.join('\n\n') || '*(no output)*');
}

function entry(e: ThreadEntry): string {
  switch (e.type) {
    case 'user':
    case 'agent': {
      const body = [e.text, ...e.attachments.map(block)].filter(Boolean).join('\n\n');
      return `### ${e.type === 'user' ? 'User' : 'Agent'}\n\n${body}`;
    }
    case 'thought':
      return details('Thinking', e.text);
    case 'tool':
      return tool(e);
    case 'plan':
      return `**Plan**\n\n${e.entries.map((p) => `- [${p.status === 'completed' ? 'x' : ' '}] ${p.content}`).join('\n')}`;
    case 'notice':
      return `> **${e.severity === 'info' ? 'Note' : e.severity === 'warning' ? 'Warning' : 'Error'}:** ${e.title}${e.description ? `\n> ${e.description.replace(/\n/g, '\n> ')}` : ''}`;
    case 'divider':
      return `---\n\n*${e.text}*`;
    case 'permission': {
      const chosen =
        e.outcome === undefined || e.outcome === 'cancelled'
          ? 'cancelled'
          : (e.options.find((o) => o.optionId === (e.outcome as { optionId: string }).optionId)?.name ?? 'answered');
      return `> **Permission:** ${e.title} — ${chosen}`;
    }
    case 'elicitation':
      return `> **The agent asked:** ${e.message}${e.url ? ` (${e.url})` : ''} — ${e.outcome ?? 'cancel'}`;
  }
}

/** The whole transcript as Markdown, under a heading with what identifies the session. */
export function transcriptMarkdown(header: ExportHeader, entries: readonly ThreadEntry[]): string {
  const facts = [
    header.agentName ? `Agent: ${header.agentName}` : undefined,
    `Session: \`${header.sessionId}\``,
    header.cwd ? `Folder: \`${header.cwd}\`` : undefined,
    header.updatedAt ? `Updated: ${header.updatedAt}` : undefined,
  ].filter(Boolean);
  const head = `# ${(header.title || 'Untitled session').replace(/\s+/g, ' ').trim()}\n\n${facts.join('  \n')}`;
  return `${[head, ...entries.map(entry)].join('\n\n')}\n`;
}
