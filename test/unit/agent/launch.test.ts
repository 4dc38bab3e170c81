import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { escapeCmdArgument, planLaunch, readNpmShim, type LaunchPlan } from '../../../src/agent/launch';
import { findProgram, isPathLike } from '../../../src/platform/programs';
import { checkCommand } from '../../../src/agent/agentEntries';

/** A fake Windows disk: the files that exist, matched without case as NTFS does. */
function disk(files: string[], texts: Record<string, string> = {}) {
  const lower = new Set(files.map((f) => f.toLowerCase()));
  const textsLower = Object.fromEntries(Object.entries(texts).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    isExecutable: (p: string) => lower.has(p.toLowerCase()),
    readText: (p: string) => textsLower[p.toLowerCase()],
  };
}

const NPX_CMD = [
  ":: Created by npm, please don't edit manually.",
  '@ECHO OFF',
  'SETLOCAL',
  'SET "NODE_EXE=%~dp0\\node.exe"',
  'IF NOT EXIST "%NODE_EXE%" (',
  '  SET "NODE_EXE=node"',
  ')',
  'SET "NPX_CLI_JS=%~dp0\\node_modules\\npm\\bin\\npx-cli.js"',
  '"%NODE_EXE%" "%NPX_CLI_JS%" %*',
].join('\r\n');

// What cmd-shim 7 writes for `npm install -g @github/copilot`.
const COPILOT_CMD = [
  '@ECHO off',
  'GOTO start',
  ':find_dp0',
  'SET dp0=%~dp0',
  'EXIT /b',
  ':start',
  'SETLOCAL',
  'CALL :find_dp0',
  '',
  'IF EXIST "%dp0%\\node.exe" (',
  '  SET "_prog=%dp0%\\node.exe"',
  ') ELSE (',
  '  SET "_prog=node"',
  '  SET PATHEXT=%PATHEXT:;.JS;=;%',
  ')',
  '',
  'endLocal & goto #_undefined_# 2>NUL || title %COMSPEC% & set PATHEXT=%PATHEXT:;.JS;=;% & "%_prog%"  "%dp0%\\node_modules\\@github\\copilot\\npm-loader.js" %*',
  '',
].join('\r\n');

const win = (extra: object = {}) => ({
  platform: 'win32' as const,
  env: {
    Path: 'C:\\Windows\\System32;C:\\Program Files\\nodejs;C:\\Users\\me\\AppData\\Roaming\\npm',
    PATHEXT: '.com;.exe;.bat;.cmd',
    ComSpec: 'C:\\Windows\\System32\\cmd.exe',
  },
  ...extra,
});

describe('Starting a command on Windows (rules tested on any system)', () => {
  it('finds a bare name on PATH × PATHEXT, never the extensionless script npm puts beside npx.cmd', () => {
    const d = disk(['C:\\Program Files\\nodejs\\npx', 'C:\\Program Files\\nodejs\\npx.cmd']);
    assert.equal(findProgram('npx', { ...win(), ...d }), 'C:\\Program Files\\nodejs\\npx.cmd');
    // And Add Agent says the same.
    const check = checkCommand('npx', { ...win(), ...d });
    assert.deepEqual(check, { found: true, path: 'C:\\Program Files\\nodejs\\npx.cmd' });
    // Only the extensionless file: not found, as Windows would not run it.
    const bare = disk(['C:\\Program Files\\nodejs\\npx']);
    assert.equal(findProgram('npx', { ...win(), ...bare }), undefined);
    assert.equal(checkCommand('npx', { ...win(), ...bare }).found, false);
  });

  it('tries PATHEXT in order in each folder in turn, reads `Path` in any case and quoted folders', () => {
    const d = disk(['C:\\a\\tool.cmd', 'C:\\a\\tool.exe', 'C:\\b c\\other.bat']);
    const env = {
      platform: 'win32' as const,
      env: { pAtH: 'relative;"C:\\b c";C:\\a', PATHEXT: '.exe;.cmd;.bat' },
      ...d,
    };
    assert.equal(findProgram('tool', env), 'C:\\a\\tool.exe');
    assert.equal(findProgram('tool.cmd', env), 'C:\\a\\tool.cmd');
    assert.equal(findProgram('other', env), 'C:\\b c\\other.bat');
    // A relative PATH entry would be looked up in the agent's folder, which a repository controls.
    assert.equal(findProgram('x', { ...env, ...disk(['relative\\x.exe']) }), undefined);
  });

  it('takes `\\` as a separator in a typed path on Windows only', () => {
    assert.ok(isPathLike('tools\\agent.cmd', 'win32'));
    assert.ok(!isPathLike('tools\\agent', 'linux'));
    assert.ok(!isPathLike('tools\\agent', 'darwin'));
    const d = disk(['C:\\work\\tools\\agent.cmd']);
    assert.equal(findProgram('tools\\agent', { ...win(), ...d, cwd: 'C:\\work' }), 'C:\\work\\tools\\agent.cmd');
    assert.deepEqual(checkCommand('tools\\agent', { ...win(), ...d, cwd: 'C:\\work' }), {
      found: true,
      path: 'C:\\work\\tools\\agent.cmd',
    });
  });

  it("starts npx as node with npm's own npx-cli.js, no cmd.exe", () => {
    const dir = 'C:\\Program Files\\nodejs';
    const d = disk([`${dir}\\npx.cmd`, `${dir}\\node.exe`, `${dir}\\node_modules\\npm\\bin\\npx-cli.js`], {
      [`${dir}\\npx.cmd`]: NPX_CMD,
    });
    const plan = planLaunch('npx', ['-y', '@agentclientprotocol/claude-agent-acp'], { ...win(), ...d }) as LaunchPlan;
    assert.deepEqual(plan, {
      ok: true,
      file: `${dir}\\node.exe`,
      args: [`${dir}\\node_modules\\npm\\bin\\npx-cli.js`, '-y', '@agentclientprotocol/claude-agent-acp'],
      verbatim: false,
      via: 'node',
      found: `${dir}\\npx.cmd`,
    });
  });

  it('starts an npm-installed program (copilot.cmd) as node with its script', () => {
    const npm = 'C:\\Users\\me\\AppData\\Roaming\\npm';
    const d = disk(
      [
        `${npm}\\copilot.cmd`,
        `${npm}\\node_modules\\@github\\copilot\\npm-loader.js`,
        'C:\\Program Files\\nodejs\\node.exe',
      ],
      { [`${npm}\\copilot.cmd`]: COPILOT_CMD },
    );
    const plan = planLaunch('copilot', ['--acp', '--stdio'], { ...win(), ...d }) as LaunchPlan;
    assert.equal(plan.via, 'node');
    assert.equal(plan.file, 'C:\\Program Files\\nodejs\\node.exe');
    assert.deepEqual(plan.args, [`${npm}\\node_modules\\@github\\copilot\\npm-loader.js`, '--acp', '--stdio']);
    // A shim whose _prog is something else is not taken for npm's.
    assert.equal(
      readNpmShim(`${npm}\\x.cmd`, COPILOT_CMD.replace('SET "_prog=node"', 'SET "_prog=evil"'), () => true),
      undefined,
    );
  });

  it('runs any other .cmd through cmd.exe with every argument escaped, never as a raw shell line', () => {
    const d = disk(['C:\\tools\\agent.cmd'], { 'C:\\tools\\agent.cmd': '@echo off\r\nnode "%~dp0agent.js" %*\r\n' });
    const plan = planLaunch('agent', ['x&y', 'a b', '%PATH%', 'q"uote'], {
      ...win({ env: { Path: 'C:\\tools', ComSpec: 'C:\\Windows\\System32\\cmd.exe' } }),
      ...d,
    }) as LaunchPlan;
    assert.equal(plan.via, 'cmd');
    assert.equal(plan.file, 'C:\\Windows\\System32\\cmd.exe');
    assert.equal(plan.verbatim, true);
    assert.deepEqual(plan.args.slice(0, 4), ['/d', '/v:off', '/s', '/c']);
    const line = plan.args[4]!;
    // No metacharacter is left for cmd.exe to act on: each is escaped with a caret.
    assert.ok(!/(^|[^^])[&|<>]/.test(line.slice(1, -1)), line);
    assert.ok(line.includes('^^^&'), 'escaped twice: the script hands its arguments on with %*');
    // A line break would end cmd.exe's command line: refused in words.
    const refused = planLaunch('agent', ['a\nb'], { ...win({ env: { Path: 'C:\\tools' } }), ...d });
    assert.equal(refused.ok, false);
    assert.match((refused as { why: string }).why, /line break/);
  });

  it('escapes as cross-spawn does', () => {
    assert.equal(escapeCmdArgument('a b', false), '^"a^ b^"');
    assert.equal(escapeCmdArgument('x&y', false), '^"x^&y^"');
    assert.equal(escapeCmdArgument('a"b', false), '^"a\\^"b^"');
    assert.equal(escapeCmdArgument('end\\', false), '^"end\\\\^"');
    assert.equal(escapeCmdArgument('x&y', true), '^^^"x^^^&y^^^"');
  });

  it('says what is missing when a command is not found on Windows', () => {
    const plan = planLaunch('gemini', [], { ...win(), ...disk([]) });
    assert.equal(plan.ok, false);
    assert.match((plan as { why: string }).why, /"gemini" was not found on PATH/);
  });

  it('on macOS also finds a program where Homebrew puts it when PATH lacks it', () => {
    const env = {
      platform: 'darwin' as const,
      PATH: '/usr/bin:/bin',
      isExecutable: (p: string) => p === '/opt/homebrew/bin/opencode',
    };
    assert.equal(findProgram('opencode', env), '/opt/homebrew/bin/opencode');
    const plan = planLaunch('opencode', ['acp'], env) as LaunchPlan;
    assert.equal(plan.file, '/opt/homebrew/bin/opencode');
    assert.deepEqual(checkCommand('opencode', env), { found: true, path: '/opt/homebrew/bin/opencode' });
    // An application bundle is a folder: the message says where the program is.
    const app = checkCommand('/Applications/Agent.app', { platform: 'darwin', isExecutable: () => false });
    assert.equal(app.found, false);
    assert.match((app as { why: string }).why, /application bundle.*Agent\.app\/Contents\/MacOS/);
  });

  it('leaves a command as it is on Linux (the system looks it up)', () => {
    assert.deepEqual(planLaunch('npx', ['-y', 'x'], { platform: 'linux' }), {
      ok: true,
      file: 'npx',
      args: ['-y', 'x'],
      verbatim: false,
      via: 'direct',
      found: 'npx',
    });
  });

  // The escaping proven against the real cmd.exe: only where there is one.
  (process.platform === 'win32' ? it : it.skip)('passes metacharacters through the real cmd.exe unchanged', () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-cmd-'));
    try {
      const out = join(dir, 'args.json');
      writeFileSync(
        join(dir, 'echoargs.cmd'),
        `@echo off\r\n"${process.execPath}" -e "require('fs').writeFileSync(process.argv[1], JSON.stringify(process.argv.slice(2)))" "${out}" %*\r\n`,
      );
      // No `%NAME%` here: Wine's cmd.exe drops an undefined variable where Windows' keeps it.
      const args = ['x&y', 'a b', 'q"uote', 'c^d', 'e|f', '(g)', 'h!', 'end\\'];
      const plan = planLaunch(join(dir, 'echoargs.cmd'), args) as LaunchPlan;
      const r = spawnSync(plan.file, [...plan.args], { windowsVerbatimArguments: plan.verbatim, windowsHide: true });
      assert.equal(r.status, 0, String(r.stderr));
      assert.deepEqual(JSON.parse(readFileSync(out, 'utf8')), args);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
