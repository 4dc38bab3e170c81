/**
 * Agent text to safe HTML: markdown-it with raw HTML off, then DOMPurify with an allowlist.
 * Nothing from agent text can run: no tags beyond Markdown's, no attributes beyond href/title/
 * start, no URL schemes beyond http(s), mailto, file and vscode (relative paths stay: they open
 * files). Images become links, so no remote content is ever fetched. A fenced code block keeps
 * its language as one `language-*` class on its `<code>`, for the code block's label and the
 * highlighter; no other element keeps a class.
 */
import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import { MARKDOWN_TAGS } from '../protocol/markdownTags';

const md = new MarkdownIt({ html: false, linkify: true, breaks: false, typographer: false });

// markdown-it refuses file: links by default; we want them (they open in an editor) and still
// refuse script-capable schemes. Whitespace and case are normalised before the check.
const BAD_SCHEME = /^(?:javascript|vbscript|data|blob):/i;
md.validateLink = (url: string) => !BAD_SCHEME.test(url.replace(/[\u0000-\u0020\u007f-\u009f]/g, ''));

// An image would be a remote fetch (tracking, CSP noise): show it as a link instead.
md.renderer.rules.image = (tokens, index, options, _env, self) => {
  const token = tokens[index];
  const src = String(token.attrGet('src') ?? '');
  const alt = self.renderInlineAsText(token.children ?? [], options, _env) || src;
  return `<a href="${md.utils.escapeHtml(src)}">${md.utils.escapeHtml(`[image: ${alt}]`)}</a>`;
};

const ALLOWED_URI = /^(?:(?:https?|mailto|file|vscode|vscode-insiders):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

// Our own instance, configured once: passing a config per call makes DOMPurify re-parse it
// every time, a cost paid per rendered message.
const purifier = DOMPurify(window);
purifier.setConfig({
  ALLOWED_TAGS: [...MARKDOWN_TAGS],
  ALLOWED_ATTR: ['href', 'title', 'start'],
  ALLOWED_URI_REGEXP: ALLOWED_URI,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  KEEP_CONTENT: true,
  RETURN_DOM_FRAGMENT: true,
});

/** A fence's language as markdown-it writes it: the info string's first word, escaped. */
const LANGUAGE_CLASS = /^language-[\w#+.-]{1,40}$/;
purifier.addHook('uponSanitizeAttribute', (node, data) => {
  if (data.attrName === 'class') data.forceKeepAttr = node.nodeName === 'CODE' && LANGUAGE_CLASS.test(data.attrValue);
});

/** The language a code element was fenced with (`language-*`), if any. */
export function codeLanguage(code: Element): string | undefined {
  for (const name of code.classList) if (name.startsWith('language-')) return name.slice('language-'.length);
  return undefined;
}

/**
 * Highlighter output (spans with `hljs-*` classes around escaped text) to DOM: sanitised again,
 * keeping spans and their classes only, so nothing but text and colour can come of it.
 */
const spans = DOMPurify(window);
spans.setConfig({
  ALLOWED_TAGS: ['span'],
  ALLOWED_ATTR: ['class'],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  KEEP_CONTENT: true,
  RETURN_DOM_FRAGMENT: true,
});
export function sanitizeHighlighted(html: string): DocumentFragment {
  return spans.sanitize(html) as unknown as DocumentFragment;
}

/**
 * Markdown to sanitised DOM. A fragment, not a string: DOMPurify parses to sanitise anyway, and
 * handing over its nodes saves serialising them and parsing them again. Callers that keep it
 * insert clones.
 */
export function renderMarkdown(text: string): DocumentFragment {
  return purifier.sanitize(md.render(text)) as unknown as DocumentFragment;
}

/**
 * Renders a little of every construct once and drops it: the first rendering in a page costs
 * about 20 ms more than later ones (the parser's and the sanitiser's first use, code not yet
 * optimised). See `warmUp.ts`.
 */
export function warmUpMarkdown(): void {
  renderMarkdown(
    '## Plan\n\nA **bold** and *em* `code` [link](https://example.com) line.\n\n- one\n- two\n\n' +
      '1. first\n\n> quote\n\n```ts\nconst a = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n',
  );
}
