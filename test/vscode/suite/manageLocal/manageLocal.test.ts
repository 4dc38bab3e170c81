// An agent that advertises neither title, archive nor fork: names and archives are kept on
// this side, and Fork is not offered.
import { manageCases } from '../../manageCases';

manageCases('client');
