import { answerNoAgent } from '../agents/agentSettings';
import type { Commands } from '../commands';
import { continueLastSession } from './continueLast';
import type { ResumeDeps } from './resumeDeps';
import { resumeSession } from './resumePicker';

/** "ACP: Resume Session" and "ACP: Continue Last Session"; with no agent, they say how to add one. */
export function pickerCommands(deps: ResumeDeps): Commands {
  return {
    'acp.resumeSession': () => (deps.agents.all.length === 0 ? answerNoAgent() : resumeSession(deps)),
    'acp.continueLastSession': () => (deps.agents.all.length === 0 ? answerNoAgent() : continueLastSession(deps)),
  };
}
