// An agent that stores names and archives, and forks: rename, archive and fork go through it.
import { manageCases } from '../../manageCases';

manageCases('agent');
