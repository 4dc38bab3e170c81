/**
 * Links between a session and the one it was continued in ("Continue in Another Agent…"), kept
 * in the `handoffs` table (`schema.ts`) so that both chats and both rows say so after a reload.
 */
import type { Row, SqlValue } from './engine';
import { num, str } from './rows';
import type { LinkedSession, SessionKey, SessionLink } from './types';

interface LinkQueries {
  all(sql: string, values?: SqlValue[]): Row[];
  run(sql: string, values?: SqlValue[]): void;
}

export function putLink(q: LinkQueries, link: SessionLink, at: number): void {
  q.run('INSERT OR IGNORE INTO handoffs (fromAgent, fromSession, toAgent, toSession, at) VALUES (?, ?, ?, ?, ?)', [
    link.from.agentId,
    link.from.sessionId,
    link.to.agentId,
    link.to.sessionId,
    at,
  ]);
}

/** Both ways, with what the library keeps of the other session (its title and folder). */
export function linksOf(q: LinkQueries, key: SessionKey): LinkedSession[] {
  const rows = q.all(
    `SELECT 'to' AS direction, h.toAgent AS agent, h.toSession AS session, h.at, s.title, s.cwd
       FROM handoffs h LEFT JOIN sessions s ON s.agent = h.toAgent AND s.session = h.toSession
       WHERE h.fromAgent = ?1 AND h.fromSession = ?2
     UNION ALL
     SELECT 'from', h.fromAgent, h.fromSession, h.at, s.title, s.cwd
       FROM handoffs h LEFT JOIN sessions s ON s.agent = h.fromAgent AND s.session = h.fromSession
       WHERE h.toAgent = ?1 AND h.toSession = ?2
     ORDER BY at`,
    [key.agentId, key.sessionId],
  );
  return rows.map((r) => {
    const linked: LinkedSession = {
      direction: str(r.direction) === 'from' ? 'from' : 'to',
      agentId: str(r.agent)!,
      sessionId: str(r.session)!,
      at: num(r.at),
    };
    const title = str(r.title);
    const cwd = str(r.cwd);
    if (title) linked.title = title;
    if (cwd) linked.cwd = cwd;
    return linked;
  });
}
