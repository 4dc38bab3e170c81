import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { directoriesToSend } from '../../../src/chat/roots';
import { posixIt } from '../../support/platform';

describe('additional directories: what a session sends, and so its roots', () => {
  let base: string;
  let project: string;
  let docs: string;

  beforeEach(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'acp-dirs-')));
    project = join(base, 'project');
    docs = join(base, 'docs');
    mkdirSync(join(project, 'lib'), { recursive: true });
    mkdirSync(join(docs, 'api'), { recursive: true });
    mkdirSync(join(base, 'outside'));
    mkdirSync(join(base, 'docs-evil'));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  const ctx = (advertised = true) => ({ advertised, cwd: project, workspaceFolders: [project, docs] });

  it('sends nothing when the agent does not advertise sessionCapabilities.additionalDirectories', () => {
    assert.deepEqual(directoriesToSend([docs], ctx(false)), { send: [], dropped: [] });
  });

  it('sends the other workspace folders and directories inside them', () => {
    assert.deepEqual(directoriesToSend([docs, join(docs, 'api')], ctx()), {
      send: [docs, join(docs, 'api')],
      dropped: [],
    });
  });

  it('drops what a session reported outside the window\'s folders: "/", a sibling, a prefix trick, "..", a relative path', () => {
    const reported = ['/', join(base, 'outside'), join(base, 'docs-evil'), `${docs}/../outside`, 'docs', docs];
    const { send, dropped } = directoriesToSend(reported, ctx());
    assert.deepEqual(send, [docs]);
    assert.deepEqual(dropped, reported.slice(0, 5));
  });

  posixIt('symlinks', 'drops a directory inside a folder that is a symbolic link out of it', () => {
    symlinkSync(join(base, 'outside'), join(docs, 'escape'));
    assert.deepEqual(directoriesToSend([join(docs, 'escape'), docs], ctx()), {
      send: [docs],
      dropped: [join(docs, 'escape')],
    });
  });

  it('sends each directory once and never the cwd again', () => {
    assert.deepEqual(directoriesToSend([project, docs, `${docs}/`, docs], ctx()).send, [docs]);
  });

  it('sends nothing when the window has no folder', () => {
    assert.deepEqual(directoriesToSend([docs], { advertised: true, cwd: project, workspaceFolders: [] }), {
      send: [],
      dropped: [docs],
    });
  });
});
