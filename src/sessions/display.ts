import type { SessionRow } from './rows';

/** How a session is named on screen once the user's name is taken into account. */
export interface ShownName {
  /** The user's name when there is one, else the row's label (the agent's title, cleaned). */
  readonly label: string;
  /** The user named it. */
  readonly named: boolean;
  /**
   * A sentence for the tooltip when the agent knows the session by something else: the agent
   * still has its own title (the name is the client's, or the agent replaced it later).
   */
  readonly note?: string;
}

/**
 * The name shown for a session: the user's wins over the agent's title, always — a later
 * title from the agent (`session_info_update`, a fresh list) changes what the note says, never
 * the name. Both are already cleaned (`SessionMarks`, `toRow`).
 */
export function shownName(row: SessionRow, name: string | undefined): ShownName {
  if (name === undefined || name === '') return { label: row.label, named: false };
  if (row.untitled) return { label: name, named: true, note: 'The agent has no title for this session.' };
  if (row.label === name) return { label: name, named: true };
  return { label: name, named: true, note: `The agent still knows it as “${row.label}”.` };
}
