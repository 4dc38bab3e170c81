import * as vscode from 'vscode';
import { showError } from './messages';

/** A command's work, given what it was run with; what it resolves with reaches its caller (tests, other commands). */
export type Command = (...args: unknown[]) => unknown;

/** A feature's commands by id, declared beside what they act on. */
export type Commands = Readonly<Record<string, Command>>;

/**
 * Registers the commands of every feature the same way. A command that fails is over: its error
 * is said once, with Show Log, and stays until the user dismisses it; the command then resolves
 * with undefined. An id declared by two features is a mistake, caught at activation.
 */
export function registerCommands(...features: Commands[]): vscode.Disposable[] {
  const seen = new Set<string>();
  return features.flatMap((commands) =>
    Object.entries(commands).map(([id, run]) => {
      if (seen.has(id)) throw new Error(`The command ${id} is declared twice.`);
      seen.add(id);
      return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          return await run(...args);
        } catch (e) {
          void showError('ACP', e);
          return undefined;
        }
      });
    }),
  );
}
