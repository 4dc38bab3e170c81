/**
 * How one registry agent installs on this machine, decided before anything is fetched or run:
 * a binary built for this platform, else its npm package through `npx`, else its PyPI package
 * through `uvx` (when uv is on PATH). An agent with none of these for this machine is shown with
 * the reason, never offered. The launch of `npx` and `uvx` pins the registry's version, so an
 * update is the user's choice.
 */
import type { BinaryTarget, PackageDistribution, PlatformKey, RegistryAgent } from './format';

/** The registry's key for a machine (`process.platform`, `process.arch`), or undefined for one it has no builds for. */
export function platformKey(platform: NodeJS.Platform, arch: string): PlatformKey | undefined {
  const os =
    platform === 'win32' ? 'windows' : platform === 'darwin' ? 'darwin' : platform === 'linux' ? 'linux' : undefined;
  const cpu = arch === 'x64' ? 'x86_64' : arch === 'arm64' ? 'aarch64' : undefined;
  return os && cpu ? (`${os}-${cpu}` as PlatformKey) : undefined;
}

export type InstallWay =
  | {
      readonly kind: 'npx' | 'uvx';
      /** The launcher and its arguments, as the `acp.agents` entry will hold them. */
      readonly command: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string>>;
    }
  | { readonly kind: 'binary'; readonly platform: PlatformKey; readonly target: BinaryTarget };

/** Why an agent is shown but not offered on this machine. */
export interface NoWay {
  readonly why: string;
  /** What to install first (uv, Node.js), when that is all that is missing. */
  readonly needs?: 'uv' | 'node';
}

export interface MachineFacts {
  readonly platform: NodeJS.Platform;
  readonly arch: string;
  /** Whether a launcher is found on PATH, as starting it would find it. */
  readonly has: (program: 'npx' | 'uvx') => boolean;
}

/** `name@version` unless the package already names a version (npm's `@scope/name@1.2.3`). */
function pinnedNpm(pkg: string, version: string): string {
  const at = pkg.indexOf('@', pkg.startsWith('@') ? 1 : 0);
  return at > 0 ? pkg : `${pkg}@${version}`;
}

/** `name==version` unless the package already names one (`name==1.2`, `name@1.2`, `name>=1`). */
function pinnedPypi(pkg: string, version: string): string {
  return /[=@<>!~]/.test(pkg) ? pkg : `${pkg}==${version}`;
}

/** The package name without its version, to compare an entry with a preset or an installed entry. */
export function npmName(pkg: string): string {
  const at = pkg.indexOf('@', pkg.startsWith('@') ? 1 : 0);
  return at > 0 ? pkg.slice(0, at) : pkg;
}

function npxWay(p: PackageDistribution, version: string): InstallWay {
  const spec = pinnedNpm(p.package, version);
  // `-y`: npx would otherwise ask on a terminal the agent does not have.
  const args = p.cmd ? ['-y', '--package', spec, p.cmd, ...p.args] : ['-y', spec, ...p.args];
  return { kind: 'npx', command: 'npx', args, env: p.env };
}

function uvxWay(p: PackageDistribution, version: string): InstallWay {
  const spec = pinnedPypi(p.package, version);
  const args = p.cmd ? ['--from', spec, p.cmd, ...p.args] : [spec, ...p.args];
  return { kind: 'uvx', command: 'uvx', args, env: p.env };
}

/** The way this agent installs here, or why it cannot. */
export function installWay(agent: RegistryAgent, machine: MachineFacts): InstallWay | NoWay {
  const d = agent.distribution;
  const key = platformKey(machine.platform, machine.arch);
  const target = key ? d.binary?.[key] : undefined;
  if (key && target) return { kind: 'binary', platform: key, target };
  if (d.npx && machine.has('npx')) return npxWay(d.npx, agent.version);
  if (d.uvx && machine.has('uvx')) return uvxWay(d.uvx, agent.version);
  if (d.npx) return { why: 'needs Node.js (npx was not found on PATH)', needs: 'node' };
  if (d.uvx) return { why: 'needs uv (uvx was not found on PATH)', needs: 'uv' };
  const built = Object.keys(d.binary ?? {}).join(', ');
  return {
    why: `not built for this machine (${key ?? `${machine.platform}-${machine.arch}`}); built for ${built || 'no platform'}`,
  };
}

export function isWay(w: InstallWay | NoWay): w is InstallWay {
  return 'kind' in w;
}

/** How to get uv, in one sentence for this system (uv's own install ways). */
export function uvHint(platform: NodeJS.Platform): string {
  if (platform === 'win32')
    return 'Install uv (`winget install --id=astral-sh.uv`, or `pip install uv`), then add the agent again.';
  if (platform === 'darwin') return 'Install uv (`brew install uv`, or `pip install uv`), then add the agent again.';
  return "Install uv (`pipx install uv` or `pip install uv`, or your system's package), then add the agent again.";
}
