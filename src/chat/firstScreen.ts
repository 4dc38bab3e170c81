/**
 * The first screen of a chat opened on a search hit: the hit's message as the chat shows it, the
 * words marked, written by the host into the panel's HTML. The workbench takes a few hundred
 * milliseconds to start a webview's script (more than the whole wait a click on a hit deserves);
 * the page's parser paints this at once, and the chat takes over once its find bar has the same
 * words in view (src/webview/firstScreen.ts).
 *
 * Agent text is untrusted. markdown-it with raw HTML off escapes every `<` in it; links keep no
 * address and images show as their alt text (nothing here can be followed or fetched: the screen
 * is inert and lives a moment); every tag is one the chat's sanitiser allows and keeps only the
 * attributes it keeps. The page's CSP runs no script without the page's nonce either way.
 */
import type { MarkdownIt } from 'markdown-it';
import type { ThreadEntry } from '../protocol/entries';
import { findQuery } from '../protocol/findQuery';
import { MARKDOWN_TAGS } from '../protocol/markdownTags';

/** A longer message gets no first screen (the chat shows it as it always does). */
export const FIRST_SCREEN_MAX_CHARS = 100_000;

const TAGS = new Set(MARKDOWN_TAGS);
const START = /\sstart="(\d{1,9})"/;
const LANGUAGE = /\sclass="(language-[\w#+.-]{1,40})"/;

let parser: Promise<MarkdownIt> | undefined;

/** markdown-it as the chat configures it, loaded on the first hit opened. */
function markdownIt(): Promise<MarkdownIt> {
  return (parser ??= import('markdown-it').then(({ default: Parser }) => {
    const md = new Parser({ html: false, linkify: true, breaks: false, typographer: false });
    // The address is dropped below; the link's text shows as the chat shows it.
    md.validateLink = () => true;
    md.renderer.rules.image = (tokens, index, options, env, self) => {
      const token = tokens[index]!;
      const alt = self.renderInlineAsText(token.children ?? [], options, env) || String(token.attrGet('src') ?? '');
      return `<a>${md.utils.escapeHtml(`[image: ${alt}]`)}</a>`;
    };
    return md;
  }));
}

/** Loads the renderer ahead of the first hit opened (a search showed hits). */
export async function warmFirstScreen(): Promise<void> {
  await markdownIt();
}

/**
 * The first screen's HTML for a hit in `entry` (its words marked, the first occurrence as the
 * current match), or undefined when the entry is not a message the chat shows open.
 */
export async function renderFirstScreen(entry: ThreadEntry, words: readonly string[]): Promise<string | undefined> {
  if ((entry.type !== 'user' && entry.type !== 'agent') || !entry.text.trim()) return undefined;
  if (entry.text.length > FIRST_SCREEN_MAX_CHARS) return undefined;
  // Without the words in it, the screen would show what the find bar then says it cannot find.
  const query = findQuery(entry.text, words);
  if (!query) return undefined;
  const md = await markdownIt();
  const body = markWords(allowedTags(md.render(entry.text)), query);
  // Classes of its own, styled as the chat's (media/message.css): nothing looking for the chat's
  // thread or messages finds the screen.
  const who = entry.type === 'user' ? '<div class="first-who">You</div>' : '';
  return (
    '<div id="first-screen" class="first-screen" inert aria-hidden="true"><div class="first-thread"><div class="first-list">' +
    `<div class="first-entry"><div class="first-msg-${entry.type}">${who}<div class="md">${body}</div></div></div>` +
    '</div></div></div>'
  );
}

/**
 * The page's one script at parse time, after the first screen (its element carries the page's
 * nonce, and the chat's stylesheet and script addresses as `data-style` and `data-script`):
 * - takes the webview's API (it can be acquired once; the chat's script gets it from here);
 * - drops the screen when the page was shown before (a panel hidden and shown again starts from
 *   its saved place, not from the hit), else scrolls the current match a third of the way down,
 *   where the find bar will put it;
 * - loads the chat's stylesheet and script only once the page has loaded. The workbench keeps a
 *   webview's page hidden until its load event, which waits for every stylesheet and script the
 *   page names: named in the page, they would hold the first screen back until the chat ran.
 *   The script is fetched beside the stylesheet and runs once the stylesheet applies (the chat
 *   measures what it renders).
 */
export const FIRST_SCREEN_SCRIPT = `(() => {
  const api = acquireVsCodeApi();
  window.acpVsCodeApi = api;
  const boot = document.currentScript;
  const screen = document.getElementById('first-screen');
  if (screen && api.getState()) screen.remove();
  else if (screen) {
    const thread = screen.querySelector('.first-thread');
    const mark = screen.querySelector('mark.current');
    if (thread && mark) thread.scrollTop = Math.max(0, mark.getBoundingClientRect().top - thread.getBoundingClientRect().top - thread.clientHeight / 3);
    performance.mark('acp.firstScreen');
  }
  const start = () => {
    const style = document.createElement('link');
    style.rel = 'stylesheet';
    style.href = boot.dataset.style;
    const ahead = document.createElement('link');
    ahead.rel = 'preload';
    ahead.as = 'script';
    ahead.href = boot.dataset.script;
    ahead.nonce = boot.nonce;
    let started = false;
    style.onload = style.onerror = () => {
      if (started) return;
      started = true;
      const script = document.createElement('script');
      script.nonce = boot.nonce;
      script.src = boot.dataset.script;
      document.body.append(script);
    };
    document.head.append(style, ahead);
  };
  if (document.readyState === 'complete') start();
  else addEventListener('load', start, { once: true });
})();`;

/** Drops every tag the sanitiser would, and every attribute but an ordered list's start and a fence's language. */
function allowedTags(html: string): string {
  return html.replace(/<(\/?)([a-z][a-z0-9]*)([^>]*)>/gi, (_tag, close: string, name: string, attrs: string) => {
    const tag = name.toLowerCase();
    if (!TAGS.has(tag)) return '';
    if (close) return `</${tag}>`;
    const start = tag === 'ol' ? START.exec(attrs) : null;
    const language = tag === 'code' ? LANGUAGE.exec(attrs) : null;
    return `<${tag}${start ? ` start="${start[1]}"` : ''}${language ? ` class="${language[1]}"` : ''}>`;
  });
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"' };
const escapeText = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * Wraps each occurrence of `query` (lower-cased) in the text between tags in `<mark>`; the first
 * one is the current match. The text is matched as it reads (entities decoded), so a word never
 * splits an entity.
 */
function markWords(html: string, query: string): string {
  let first = true;
  return html
    .split(/(<[^>]*>)/)
    .map((part) => {
      if (part.startsWith('<')) return part;
      const text = part.replace(/&(?:amp|lt|gt|quot);/g, (e) => ENTITIES[e]!);
      const lower = text.toLowerCase();
      // A letter whose lower case is longer would shift every index after it: left unmarked.
      if (lower.length !== text.length) return part;
      let out = '';
      let from = 0;
      for (let at = lower.indexOf(query); at !== -1; at = lower.indexOf(query, from)) {
        out += `${escapeText(text.slice(from, at))}<mark${first ? ' class="current"' : ''}>${escapeText(text.slice(at, at + query.length))}</mark>`;
        first = false;
        from = at + query.length;
      }
      return from === 0 ? part : out + escapeText(text.slice(from));
    })
    .join('');
}
