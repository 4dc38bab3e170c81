import type { LoadingPhase } from '../protocol/entries';

/** What a chat says when the user cancelled its attach, by the phase it was in. */
export const CANCELLED_TEXT: Record<LoadingPhase, string> = {
  connect: 'Cancelled while the agent was starting.',
  new: 'Starting the session was cancelled.',
  load: 'Loading the history was cancelled.',
  resume: 'Resuming the session was cancelled.',
};
