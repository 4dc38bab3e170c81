/**
 * A kept transcript as one Markdown document: messages as they were written, thoughts and tool
 * calls as collapsible `<details>`, diffs as fenced `diff` blocks, terminal output and raw
 * values as code blocks.
 *
 * Agent text is untrusted and the document is read in a renderer that takes raw HTML (VS Code's
 * preview, GitHub), so no entry may change how the next one reads: each message is quoted
 * (every line under `>`, which closes an unclosed code fence or HTML block at the quote's end and
 * shows a `### User` inside it as quoted), raw HTML in it is escaped outside code (an unclosed
 * `<!--` or a `</details>` would reach past the quote), its images become links (a remote image
 * would be fetched when the document is read), and every one-line value (titles, paths, plan
 * items) is escaped or put in a code span on one line.
 */
import type { MarkdownIt, Token } from 'markdown-it';
import type { ContentBlock, ToolCallContent } from '@agentclientprotocol/sdk';
import type { ThreadEntry, ToolCallEntry } from '../protocol/entries';
import { changesLabel } from '../protocol/changes';

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
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Text shown as it is, on one line: every character Markdown or HTML would read escaped. */
export function inline(s: string): string {
  return oneLine(s).replace(/[\\`*_[\]<>#!|~&]/g, '\\$&');
}

/** A code span on one line, its backtick run longer than any inside. */
export function code(s: string): string {
  const text = oneLine(s);
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${f}${pad}${text}${pad}${f}`;
}

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

/** Rounds of escaping before everything outside code is escaped blindly (a bound, never reached in practice). */
const MAX_ROUNDS = 8;

/**
 * A message as a quote that nothing in it reaches past: its lines under `>`, raw HTML escaped
 * outside code, images turned into links. Code blocks and code spans stay as written. Which
 * lines are code is read from markdown-it's parse of the quote itself, then the quote is parsed
 * again until no raw HTML or image is left: escaping can change what the lines after read as
 * (an escaped HTML block becomes a paragraph, which takes in an indented block after it).
 */
export function quoteMessage(md: MarkdownIt, text: string): string {
  let quoted = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => (l ? `> ${l}` : '>'))
    .join('\n');
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const tokens = md.parse(quoted, {});
    if (!tokens.some(active)) return quoted;
    const next = escapeOutsideCode(quoted, tokens);
    if (next === quoted) break;
    quoted = next;
  }
  return escapeLine(quoted);
}

/** Raw HTML or an image: what a reader's renderer would act on. */
function active(t: Token): boolean {
  return t.type === 'html_block' || !!t.children?.some((c) => c.type === 'html_inline' || c.type === 'image');
}

/** `<` as an entity and `![` as a link, on lines that are not code, code spans kept where the parse has them. */
function escapeOutsideCode(text: string, tokens: readonly Token[]): string {
  const lines = text.split('\n');
  const code = new Array<boolean>(lines.length).fill(false);
  // Leaf blocks whose inline content is one run of text: code spans pair up only inside one.
  const runs: [number, number][] = [];
  for (const t of tokens) {
    if (!t.map) continue;
    const [from, to] = t.map;
    if (t.type === 'fence' || t.type === 'code_block') code.fill(true, from, to);
    else if (t.type === 'paragraph_open' || t.type === 'heading_open') runs.push([from, to]);
  }
  const done = new Array<boolean>(lines.length).fill(false);
  for (const [from, to] of runs) {
    if (code.slice(from, to).some(Boolean)) continue;
    const escaped = escapeRun(lines.slice(from, to).join('\n')).split('\n');
    lines.splice(from, to - from, ...escaped);
    done.fill(true, from, to);
  }
  // Everything else that is not code (tables, whose cells split code spans, HTML blocks, lines
  // between blocks) is escaped whole.
  return lines.map((l, i) => (code[i] || done[i] ? l : escapeLine(l))).join('\n');
}

/** `<` as an entity and `![` escaped everywhere, a character escaped already kept so (`\![` stays as it is). */
function escapeLine(text: string): string {
  return text.replace(/\\[!-/:-@[-`{-~]|<|!\[/g, (m) => (m === '<' ? '&lt;' : m === '![' ? '\\![' : m));
}

/**
 * One paragraph or heading: `<` and `![` escaped except inside code spans, found as CommonMark
 * finds them (a run of N backticks closes at the next run of exactly N; a backslash escapes a
 * backtick outside a span only).
 */
function escapeRun(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length && /[!-/:-@[-`{-~]/.test(text[i + 1]!)) {
      out += text.slice(i, i + 2);
      i += 2;
    } else if (c === '`') {
      let n = i;
      while (text[n] === '`') n++;
      const run = text.slice(i, n);
      const close = closingRun(text, n, run.length);
      const end = close === -1 ? n : close + run.length;
      out += text.slice(i, end);
      i = end;
    } else if (c === '<') {
      out += '&lt;';
      i++;
    } else if (c === '!' && text[i + 1] === '[') {
      out += '\\!';
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

function closingRun(text: string, from: number, length: number): number {
  for (let i = text.indexOf('`', from); i !== -1;) {
    let n = i;
    while (text[n] === '`') n++;
    if (n - i === length) return i;
    i = text.indexOf('`', n);
  }
  return -1;
}

function block(b: ContentBlock): string {
  switch (b.type) {
    case 'text':
      return b.text;
    case 'image':
    case 'audio':
      return `*(${b.type}, ${inline(b.mimeType)})*`;
    case 'resource_link':
      return `${inline(b.title ?? b.name)} (${code(b.uri)})`;
    case 'resource':
      return 'text' in b.resource
        ? `${code(b.resource.uri)}\n\n${fence(b.resource.text)}`
        : `*(embedded ${inline(b.resource.mimeType ?? 'data')}: ${code(b.resource.uri)})*`;
    default:
      return '';
  }
}

function toolContent(c: ToolCallContent, entry: ToolCallEntry): string {
  switch (c.type) {
    case 'content':
      return c.content.type === 'text' ? fence(c.content.text) : block(c.content);
    case 'diff':
      return `${code(c.path)}\n\n${unifiedDiff(c.path, c.oldText, c.newText)}`;
    case 'terminal': {
      const out = entry.terminalOutput?.[c.terminalId];
      if (!out) return '*(terminal output not kept)*';
      const exit =
        out.exitCode != null ? `\n\nExit code ${out.exitCode}` : out.signal ? `\n\nEnded by ${inline(out.signal)}` : '';
      return `${fence(out.truncated ? `…\n${out.output}` : out.output, 'console')}${exit}`;
    }
  }
}

/** A `<details>` block; the summary on one line, since a blank line would end the HTML block early. */
function details(summary: string, body: string): string {
  return `<details>\n<summary>${html(oneLine(summary))}</summary>\n\n${body.trim()}\n\n</details>`;
}

function tool(e: ToolCallEntry): string {
  const parts = e.content.map((c) => toolContent(c, e));
  if (e.locations.length && !e.content.some((c) => c.type === 'diff'))
    parts.unshift(e.locations.map((l) => `- ${code(`${l.path}${l.line != null ? `:${l.line}` : ''}`)}`).join('\n'));
  if (e.rawInput !== undefined) parts.push(`Input:\n\n${fence(JSON.stringify(e.rawInput, null, 2) ?? '', 'json')}`);
  if (e.rawOutput !== undefined) parts.push(`Output:\n\n${fence(JSON.stringify(e.rawOutput, null, 2) ?? '', 'json')}`);
  return details(`Tool: ${e.title} (${e.status.replace('_', ' ')})`, parts.join('\n\n') || '*(no output)*');
}

function entry(md: MarkdownIt, e: ThreadEntry): string {
  switch (e.type) {
    case 'user':
    case 'agent': {
      // Attachments are written here (links and code as above), after the message's own text.
      const attachments = e.attachments.map(block).filter(Boolean);
      const body = [
        e.text ? quoteMessage(md, e.text) : '',
        ...attachments.map((a, i) => (e.attachments[i]?.type === 'text' ? quoteMessage(md, a) : quoteLines(a))),
      ].filter(Boolean);
      return `### ${e.type === 'user' ? 'User' : 'Agent'}\n\n${body.join('\n>\n')}`;
    }
    case 'thought':
      return details('Thinking', quoteMessage(md, e.text));
    case 'tool':
      return tool(e);
    case 'plan':
      return `**Plan**\n\n${e.entries.map((p) => `- [${p.status === 'completed' ? 'x' : ' '}] ${inline(p.content)}`).join('\n')}`;
    case 'notice': {
      const label = e.severity === 'info' ? 'Note' : e.severity === 'warning' ? 'Warning' : 'Error';
      const more = (e.description ?? '')
        .split(/\r?\n/)
        .filter((l) => l.trim())
        .map((l) => `\n> ${inline(l)}`)
        .join('');
      return `> **${label}:** ${inline(e.title)}${more}`;
    }
    case 'divider':
      return `---\n\n*${inline(e.text)}*`;
    case 'permission': {
      const chosen =
        e.outcome === undefined || e.outcome === 'cancelled'
          ? 'cancelled'
          : (e.options.find((o) => o.optionId === (e.outcome as { optionId: string }).optionId)?.name ?? 'answered');
      return `> **Permission:** ${inline(e.title)} — ${inline(chosen)}`;
    }
    case 'changes': {
      const unnamed = e.unnamed.length ? `; not from a tool call: ${e.unnamed.map(code).join(', ')}` : '';
      return `*${changesLabel(e)}${unnamed}*`;
    }
    case 'elicitation':
      return `> **The agent asked:** ${inline(e.message)}${e.url ? ` (${code(e.url)})` : ''} — ${inline(e.outcome ?? 'cancel')}`;
  }
}

/** Lines this module wrote (safe as they are) under `>`, to sit in a message's quote. */
function quoteLines(text: string): string {
  return text
    .split('\n')
    .map((l) => (l ? `> ${l}` : '>'))
    .join('\n');
}

let parser: Promise<MarkdownIt> | undefined;

/**
 * markdown-it as a reader's renderer reads (raw HTML on), loaded on the first export: the
 * extension's start does not pay for it.
 */
function markdownIt(): Promise<MarkdownIt> {
  return (parser ??= import('markdown-it').then(({ default: Parser }) => new Parser({ html: true })));
}

/** The whole transcript as Markdown, under a heading with what identifies the session. */
export async function transcriptMarkdown(header: ExportHeader, entries: readonly ThreadEntry[]): Promise<string> {
  const md = await markdownIt();
  const facts = [
    header.agentName ? `Agent: ${inline(header.agentName)}` : undefined,
    `Session: ${code(header.sessionId)}`,
    header.cwd ? `Folder: ${code(header.cwd)}` : undefined,
    header.updatedAt ? `Updated: ${inline(header.updatedAt)}` : undefined,
  ].filter(Boolean);
  const head = `# ${inline(header.title || '') || 'Untitled session'}\n\n${facts.join('  \n')}`;
  return `${[head, ...entries.map((e) => entry(md, e))].join('\n\n')}\n`;
}
