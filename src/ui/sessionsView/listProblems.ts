import * as vscode from 'vscode';
import { Disposable } from '../../base/lifecycle';

/**
 * Why lists failed, one sentence per list, joined into the message a view shows above its rows:
 * a tree row is cut at the view's width, a view's message wraps.
 */
export class ListProblems<K> extends Disposable {
  private readonly reasons = new Map<K, string>();
  private readonly emitter = this.register(new vscode.EventEmitter<string | undefined>());
  /** The message changed (undefined: nothing failed). */
  readonly onDidChange = this.emitter.event;
  private shown: string | undefined;

  /** The list's reason, or undefined when it no longer fails. */
  set(key: K, why: string | undefined): void {
    if (why) this.reasons.set(key, why);
    else this.reasons.delete(key);
    const message = [...new Set(this.reasons.values())].join('\n') || undefined;
    if (message === this.shown) return;
    this.shown = message;
    this.emitter.fire(message);
  }

  /** Lists went away (agents or folders changed): their reasons go with them. */
  clear(): void {
    for (const key of [...this.reasons.keys()]) this.set(key, undefined);
  }

  get message(): string | undefined {
    return this.shown;
  }
}
