/**
 * "Continue in Another Agent…" without the editor: the briefing drafted from what the library
 * keeps of a session, and the words that name a linked session in a chat's header and a row's
 * tooltip. Only the library's copy is read (masked as kept); no agent is asked anything here.
 */
import { draftBriefing, emptyBriefing, type BriefingSource } from '../library/briefing';
import type { LibraryService } from '../library/service';
import type { LinkedSession, SessionKey } from '../library/types';
import type { SessionLinkView } from '../protocol/messages';

export type HandoffDraft =
  /** Drafted from the kept transcript; `cut`: turns were left out to keep within the limit. */
  | { kept: true; text: string; cut: boolean }
  /** Nothing to draft from: `why` says so, `text` is a one-line briefing naming the session. */
  | { kept: false; why: string; text: string };

/** The briefing of `key` from what the library keeps of it, within `maxChars`. */
export async function draftHandoff(
  library: LibraryService,
  key: SessionKey,
  source: BriefingSource,
  maxChars: number,
): Promise<HandoffDraft> {
  const text = emptyBriefing(source);
  const client = library.get();
  if (!client)
    return {
      kept: false,
      why: library.failure ?? 'the session library is turned off ("acp.library.enabled")',
      text,
    };
  let entries;
  try {
    entries = await client.transcript(key);
  } catch (e) {
    return { kept: false, why: `the session library could not be read (${e instanceof Error ? e.message : e})`, text };
  }
  if (!entries?.some((e) => e.type === 'user'))
    return { kept: false, why: 'the session library keeps nothing of it (it was never opened here)', text };
  const briefing = draftBriefing(entries, source, maxChars);
  return { kept: true, text: briefing.text, cut: briefing.cut };
}

/** What names a linked session: the library's title, else the open chat's, else its id. */
export interface LinkNames {
  agentName(agentId: string): string;
  openTitle?(key: SessionKey): string | undefined;
}

/** "Continued in Second Agent — Cart totals" / "Continued from Reference Agent — Cart totals". */
export function linkText(link: LinkedSession, names: LinkNames): string {
  const title = link.title?.trim() || names.openTitle?.(link)?.trim() || `session ${link.sessionId.slice(0, 8)}`;
  return `${link.direction === 'to' ? 'Continued in' : 'Continued from'} ${names.agentName(link.agentId)} — ${title}`;
}

export function linkViews(links: readonly LinkedSession[], names: LinkNames): SessionLinkView[] {
  return links.map((l) => ({
    direction: l.direction,
    agentId: l.agentId,
    sessionId: l.sessionId,
    text: linkText(l, names),
  }));
}

/** The links of a session as the library keeps them; none without the library. */
export async function linksOf(library: LibraryService, key: SessionKey): Promise<LinkedSession[]> {
  return (
    (await library
      .get()
      ?.links(key)
      .catch(() => undefined)) ?? []
  );
}
