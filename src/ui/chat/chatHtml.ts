import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { FIRST_SCREEN_SCRIPT } from '../../chat/firstScreen';
import { chatCsp } from '../../protocol/csp';

/**
 * The chat panel's page: the CSP, the chat's stylesheet and script (by the page's nonce), and
 * `firstScreen`, the message of a search hit the chat was opened on (src/chat/firstScreen.ts).
 * A first screen paints with its own style inlined, and its script loads the chat's stylesheet
 * and script once the page has loaded (see FIRST_SCREEN_SCRIPT).
 */
export function chatHtml(webview: vscode.Webview, extensionUri: vscode.Uri, firstScreen?: string): string {
  const nonce = makeNonce();
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'chat.css'));
  const csp = chatCsp(webview.cspSource, nonce);
  const firstStyle = firstScreen ? messageCss(extensionUri) : undefined;
  const [head, body] =
    firstScreen && firstStyle !== undefined
      ? [
          `<style nonce="${nonce}">${firstStyle}</style>`,
          `${firstScreen}
<div id="app"></div>
<script nonce="${nonce}" data-style="${style}" data-script="${script}">${FIRST_SCREEN_SCRIPT}</script>`,
        ]
      : [
          `<link rel="stylesheet" href="${style}">`,
          `<div id="app"></div>
<script nonce="${nonce}" src="${script}"></script>`,
        ];
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${head}
<title>ACP Chat</title>
</head>
<body>
${body}
</body>
</html>`;
}

let messageStyle: string | undefined;

/** The page's and messages' style (dist/message.css), read once; undefined when it cannot be read. */
function messageCss(extensionUri: vscode.Uri): string | undefined {
  try {
    return (messageStyle ??= readFileSync(join(extensionUri.fsPath, 'dist', 'message.css'), 'utf8'));
  } catch {
    return undefined;
  }
}

function makeNonce(): string {
  const bytes = new Uint8Array(18);
  crypto.getRandomValues(bytes);
  return Buffer.from(bytes)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '');
}
