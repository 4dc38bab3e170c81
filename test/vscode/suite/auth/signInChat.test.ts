import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api } from '../../support';
import { waitFor } from '../../../support/wait';

describe('Sign-in inside a chat', function () {
  this.timeout(90_000);

  it('a chat refused for want of sign-in offers "Sign in to …"; signing in attaches it, and a prompt refused later is sent once signed in', async () => {
    const a = await api();
    const host = a.agents.all[0]!;
    const cwd = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    // Signed in to list the sessions, whatever the suite's other tests left behind.
    await vscode.commands.executeCommand('acp.signIn', host.config.id, 'reference-login');
    const sessionId = (await (await host.connect()).listSessions({ cwd })).sessions[0]!.sessionId;
    await vscode.commands.executeCommand('acp.signOut', host.config.id);

    const chat = (await a.chats.open({ agentId: host.config.id, sessionId, cwd }, 'load'))!;
    const banner = () => {
      const s = chat.session.thread.status;
      return s.state === 'error' && s.signIn === true;
    };
    await waitFor('the sign-in banner', banner);
    // What the banner's button runs.
    assert.equal(await vscode.commands.executeCommand('acp.signIn', host.config.id, 'reference-login'), true);
    await waitFor('attached after signing in', () => chat.session.capabilities().canPrompt);

    await vscode.commands.executeCommand('acp.signOut', host.config.id);
    await chat.session.prompt('hello while signed out');
    assert.ok(banner(), JSON.stringify(chat.session.thread.status));
    assert.equal(await vscode.commands.executeCommand('acp.signIn', host.config.id, 'reference-login'), true);
    await waitFor('the reply to the prompt sent again', () =>
      chat.session.thread.entries.some((e) => e.type === 'agent' && e.text.includes('hello while signed out')),
    );
    assert.equal(
      chat.session.thread.entries.filter((e) => e.type === 'user').length,
      2,
      'the replayed turn and the prompt, shown once',
    );
    chat.panel.dispose();
  });
});
