/**
 * How a window applies a setting of `machine` scope, decided from what `inspect()` answers
 * (no vscode here, so the rule is unit-tested). The extension host's `inspect()` carries the
 * local and remote user values at run time, beyond its typed fields.
 */
export interface MachineInspect {
  readonly globalValue?: unknown;
  readonly globalLocalValue?: unknown;
  readonly globalRemoteValue?: unknown;
}

/**
 * The value in effect. In a remote window only the Remote settings count. For the first seconds
 * after such a window opens, before the workbench knows the setting's scope, the merged value
 * (`get()`) still holds the User settings' value, and it drops it later without a change event:
 * reading the remote value alone gives the same answer at any moment. A host that does not
 * report the remote value (an older one) falls back on the merged value.
 */
export function machineValue(inspected: MachineInspect | undefined, remote: boolean, merged: unknown): unknown {
  if (remote && inspected && 'globalRemoteValue' in inspected) return inspected.globalRemoteValue;
  return merged;
}

/** The value as written in the scope this window writes (`Global`: the Remote settings in a remote window). */
export function writtenValue(inspected: MachineInspect | undefined, remote: boolean): unknown {
  if (remote && inspected && 'globalRemoteValue' in inspected) return inspected.globalRemoteValue;
  return inspected?.globalValue;
}

/** What the User settings of a remote window hold, while the merged value still shows it. */
export function ignoredLocalValue(inspected: MachineInspect | undefined, remote: boolean): unknown {
  return remote ? inspected?.globalLocalValue : undefined;
}
