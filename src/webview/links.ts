/**
 * What a click on a link in agent text asks the host to do. The webview never navigates: web
 * and `vscode:` links go to the host (`openLink`, VS Code confirms external ones), file URIs and
 * paths open in an editor (`openLocation`), anything else is ignored.
 */
export type LinkTarget = { kind: 'link'; href: string } | { kind: 'location'; path: string; line?: number };

const WEB = /^(?:https?|mailto|vscode|vscode-insiders):/i;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const WINDOWS_DRIVE = /^[a-z]:[\\/]/i;

export function classifyHref(raw: string | null): LinkTarget | undefined {
  const href = (raw ?? '').trim();
  if (href === '' || href.startsWith('#')) return undefined;
  if (WEB.test(href)) return { kind: 'link', href };
  if (/^file:/i.test(href)) {
    const { path, line } = splitLine(href);
    return line === undefined ? { kind: 'location', path } : { kind: 'location', path, line };
  }
  if (SCHEME.test(href) && !WINDOWS_DRIVE.test(href)) return undefined;
  const { path, line } = splitLine(href);
  const decoded = safeDecode(path);
  if (decoded === '') return undefined;
  return line === undefined ? { kind: 'location', path: decoded } : { kind: 'location', path: decoded, line };
}

/** `path#L12`, `path#12`, `path:12` and `path:12:3` carry a 1-based line. */
function splitLine(href: string): { path: string; line?: number } {
  const hash = href.indexOf('#');
  if (hash !== -1) {
    const match = /^L?(\d+)/i.exec(href.slice(hash + 1));
    return match ? { path: href.slice(0, hash), line: Number(match[1]) } : { path: href.slice(0, hash) };
  }
  const suffix = /:(\d+)(?::\d+)?$/.exec(href);
  if (suffix && !WINDOWS_DRIVE.test(href.slice(0, suffix.index + 1)) && suffix.index > 0) {
    return { path: href.slice(0, suffix.index), line: Number(suffix[1]) };
  }
  return { path: href };
}

function safeDecode(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}
