import * as vscode from 'vscode';
import type { AgentHost } from '../../agent/agentHost';
import type { Logger } from '../../agent/log';
import type { RegistryAgents } from '../../app/registryAgents';
import { sizeText } from '../../registry/download';
import { installPlan, registryEntry, updatedFields, type RegistryEntry } from '../../registry/entry';
import type { RegistryAgent } from '../../registry/format';
import { HttpError } from '../../registry/http';
import { installWay, isWay, uvHint, type InstallWay, type NoWay } from '../../registry/installWay';
import { agentUpdated, registryAgentNotOffered, registryInstallFailed } from '../messages';

export interface RegistryInstallDeps {
  readonly registry: RegistryAgents;
  readonly log: Logger;
}

type Step = vscode.QuickPickItem & { answer?: boolean };

/**
 * The last step before anything is fetched or run: the command that will run, the folder it goes
 * into, and what will be downloaded (and how much), each on a row of its own, with Install and
 * Cancel. A pick, not a modal, so that all of it stays on screen while the user reads it; only
 * Install and Cancel answer it.
 */
function confirmStep(title: string, action: string, plan: ReturnType<typeof installPlan>): Promise<boolean> {
  const items: Step[] = [{ label: `$(cloud-download) ${action}`, detail: `Runs ${plan.runs}`, answer: true }];
  if (plan.folder) items.push({ label: '$(folder) Where it goes', detail: plan.folder });
  if (plan.download) items.push({ label: '$(info) What it downloads', detail: plan.download });
  items.push({ label: '$(close) Cancel', answer: false });
  const qp = vscode.window.createQuickPick<Step>();
  qp.title = title;
  qp.placeholder = plan.folder ? `Downloads into ${plan.folder}, then runs it` : `Runs ${plan.runs}`;
  qp.items = items;
  qp.ignoreFocusOut = true;
  qp.matchOnDetail = true;
  return new Promise((resolve) => {
    qp.onDidAccept(() => {
      const answer = qp.selectedItems[0]?.answer;
      if (answer === undefined) return;
      resolve(answer);
      qp.hide();
    });
    qp.onDidHide(() => {
      resolve(false);
      qp.dispose();
    });
    qp.show();
  });
}

/** Says why a registry agent is not offered here, with how to get what it needs. */
export function notOffered(agent: RegistryAgent, way: NoWay): void {
  const hint =
    way.needs === 'uv'
      ? uvHint(process.platform)
      : way.needs === 'node'
        ? 'Install Node.js (it provides npx), then add the agent again.'
        : undefined;
  registryAgentNotOffered(agent.name, way.why, hint);
}

/** Downloads and unpacks a binary with progress in a notification that can cancel it; the installed command. */
async function installWithProgress(
  deps: RegistryInstallDeps,
  agent: RegistryAgent,
  way: Extract<InstallWay, { kind: 'binary' }>,
): Promise<string | undefined> {
  try {
    const installed = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Installing ${agent.name} ${agent.version}`,
        cancellable: true,
      },
      (progress, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        let shown = 0;
        return deps.registry.installBinary(agent, way, {
          signal: abort.signal,
          onProgress: (p) => {
            if (p.phase === 'unpack') return progress.report({ message: 'unpacking…' });
            const pct = p.total ? (100 * p.bytes) / p.total : 0;
            progress.report({
              message: p.total ? `${sizeText(p.bytes)} of ${sizeText(p.total)}` : sizeText(p.bytes),
              ...(p.total ? { increment: pct - shown } : {}),
            });
            shown = pct;
          },
        });
      },
    );
    deps.log.info(
      `registry: ${agent.name} ${agent.version} ${installed.reused ? 'was installed already' : 'installed'} in ${installed.dir}`,
    );
    return installed.command;
  } catch (e) {
    const why = (e as Error).message;
    if (e instanceof HttpError && e.kind === 'cancelled') {
      deps.log.info(`registry: the install of ${agent.name} was cancelled; nothing of it is kept`);
      return undefined;
    }
    if (why === 'cancelled') return undefined;
    deps.log.warn(`registry: ${agent.name} ${agent.version} was not installed: ${why}`);
    await registryInstallFailed(agent.name, why);
    return undefined;
  }
}

/** The install step, then a binary's download: the installed command (none for npx and uvx), or undefined when not done. */
async function askAndInstall(
  deps: RegistryInstallDeps,
  agent: RegistryAgent,
  way: InstallWay,
  title: string,
  action: string,
  plan: ReturnType<typeof installPlan>,
): Promise<{ command?: string } | undefined> {
  if (!(await confirmStep(title, action, plan))) return undefined;
  if (way.kind !== 'binary') return {};
  const command = await installWithProgress(deps, agent, way);
  return command ? { command } : undefined;
}

/**
 * Installs what the user chose in the registry: says what will run and where, asks, downloads a
 * binary with progress, and gives the `acp.agents` entry to write (nothing is written here).
 */
export async function installChosen(
  deps: RegistryInstallDeps,
  agent: RegistryAgent,
  way: InstallWay | NoWay,
  taken: readonly unknown[],
  size?: number,
): Promise<RegistryEntry | undefined> {
  if (!isWay(way)) {
    notOffered(agent, way);
    return undefined;
  }
  const plan = installPlan(agent, way, deps.registry.agentsDir, { size });
  deps.log.info(`registry: offering ${agent.name} ${agent.version}: ${plan.download ?? ''}; runs ${plan.runs}`);
  const title = `Add ${agent.name} ${agent.version} from the ACP Registry`;
  const done = await askAndInstall(deps, agent, way, title, `Install ${agent.name} ${agent.version}`, plan);
  return done ? registryEntry(agent, way, taken, done.command) : undefined;
}

/**
 * "Update to 1.4.0": the new version is installed beside the old one and the entry switched to
 * it now, or when the agent next starts if it is running; the old folder goes once nothing runs it.
 */
export async function updateAgent(deps: RegistryInstallDeps, host: AgentHost): Promise<boolean> {
  const agent = deps.registry.updateOf(host);
  if (!agent) return false;
  const way = installWay(agent, deps.registry.machine());
  if (!isWay(way)) {
    notOffered(agent, way);
    return false;
  }
  const plan = installPlan(agent, way, deps.registry.agentsDir);
  const from = host.config.registry?.version ?? '';
  const title = `Update ${host.config.name} from ${from} to ${agent.version}`;
  const done = await askAndInstall(deps, agent, way, title, `Update to ${agent.version}`, plan);
  if (!done) return false;
  const when = await deps.registry.switchTo(host.config.id, agent.version, updatedFields(agent, way, done.command));
  agentUpdated(host.config.name, agent.version, when);
  return true;
}
