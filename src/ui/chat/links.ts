import * as path from 'node:path';
import * as vscode from 'vscode';
import { parseWebAddress } from '../../protocol/webAddress';
import { cannotOpenFile } from '../messages';

/**
 * Opens a file from agent text at a line. Relative paths resolve against the session's cwd;
 * only `file` paths open here (never a command or another scheme).
 */
export async function openLocation(raw: string, line: number | undefined, cwd: string): Promise<void> {
  if (typeof raw !== 'string' || raw.length === 0 || raw.includes('\0')) return;
  let fsPath: string;
  if (raw.startsWith('file:')) {
    try {
      fsPath = vscode.Uri.parse(raw, true).fsPath;
    } catch {
      return;
    }
  } else {
    fsPath = path.isAbsolute(raw) ? raw : path.resolve(cwd, raw);
  }
  const uri = vscode.Uri.file(fsPath);
  const ln = typeof line === 'number' && Number.isFinite(line) && line > 0 ? Math.floor(line) - 1 : undefined;
  const selection = ln !== undefined ? new vscode.Range(ln, 0, ln, 0) : undefined;
  try {
    await vscode.window.showTextDocument(uri, { preview: true, selection });
  } catch {
    cannotOpenFile(fsPath);
  }
}

/**
 * Opens a web address an agent asks the user to visit (a URL elicitation): http and https
 * only, through `openExternal`, which asks before opening untrusted domains. True when opened.
 */
export async function openWebAddress(href: string): Promise<boolean> {
  const address = parseWebAddress(href);
  if (!address.ok) return false;
  let uri: vscode.Uri;
  try {
    uri = vscode.Uri.parse(address.href, true);
  } catch {
    return false;
  }
  // Opened only where the card said it goes: VS Code's parser must find the same site.
  if ((uri.scheme !== 'http' && uri.scheme !== 'https') || uri.authority.toLowerCase() !== address.host.toLowerCase())
    return false;
  return vscode.env.openExternal(uri);
}

/**
 * Opens a link from agent text. Web and mail links go through `openExternal`, which asks the
 * user to confirm untrusted domains; file links open in an editor; everything else (including
 * `command:`, `javascript:` and `data:`) is refused.
 */
export async function openLink(href: string, cwd: string): Promise<void> {
  if (typeof href !== 'string') return;
  const trimmed = href.trim();
  let uri: vscode.Uri;
  try {
    uri = vscode.Uri.parse(trimmed, true);
  } catch {
    return openLocation(trimmed, undefined, cwd);
  }
  switch (uri.scheme) {
    case 'http':
    case 'https':
    case 'mailto':
      await vscode.env.openExternal(uri);
      return;
    case 'file': {
      const m = /^L?(\d+)/.exec(uri.fragment);
      return openLocation(uri.with({ fragment: '' }).toString(), m ? Number(m[1]) : undefined, cwd);
    }
    default:
      if (!/^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return openLocation(trimmed, undefined, cwd);
  }
}
