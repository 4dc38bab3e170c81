/**
 * A web address an agent asks the user to open (a URL elicitation), parsed once by rules both
 * sides apply: the card shows the site of this parse and the host opens exactly its `href`.
 * Parsers disagree on addresses such as `https://accounts.google.com\@attacker.example/` (a
 * browser reads the backslash as a slash, so the site is accounts.google.com; VS Code's opener
 * reads user info, and goes to attacker.example), so only plain http(s) addresses are accepted:
 * none with user info or a backslash in the site part, spaces or control characters.
 * Shared by both sides: no vscode, no DOM, no node.
 */
export type WebAddress =
  | { readonly ok: true; readonly href: string; readonly host: string; readonly secure: boolean }
  | { readonly ok: false; readonly reason: string };

const refused = (reason: string): WebAddress => ({ ok: false, reason });

export function parseWebAddress(raw: unknown): WebAddress {
  if (typeof raw !== 'string' || raw === '') return refused('The agent gave no address.');
  if (/[\s\u0000-\u001f\u007f-\u009f]/.test(raw)) return refused('The address holds spaces or control characters.');
  // The scheme and the authority as RFC 3986 splits them, before any parser fixes them up.
  const parts = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)/i.exec(raw);
  if (!parts || !/^https?$/i.test(parts[1]!)) return refused('Only web addresses (http, https) can be opened.');
  const authority = parts[2]!;
  if (authority.includes('\\')) return refused('The site part of the address holds a backslash.');
  if (authority.includes('@')) return refused('The address carries a user name before its site (text before "@").');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refused('This is not a valid web address.');
  }
  if (url.username || url.password || (url.protocol !== 'https:' && url.protocol !== 'http:') || !url.host)
    return refused('This is not a plain web address.');
  return { ok: true, href: url.href, host: url.host, secure: url.protocol === 'https:' };
}
