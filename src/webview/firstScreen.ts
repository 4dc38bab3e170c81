/**
 * The first screen the host painted for a chat opened on a search hit (src/chat/firstScreen.ts):
 * the hit's message, its words marked, shown while the chat starts. It stays over the chat until
 * the chat has the words in view itself, the host says the entry will not come, or the user does
 * anything (a key, a click, the wheel): what they act on is the chat underneath.
 */
export class FirstScreen {
  private node: HTMLElement | null;

  constructor(doc: Document = document) {
    this.node = doc.getElementById('first-screen');
    if (!this.node) return;
    const drop = (): void => this.drop();
    for (const type of ['keydown', 'pointerdown', 'wheel', 'touchstart'])
      doc.addEventListener(type, drop, { capture: true, once: true, passive: true });
  }

  drop(): void {
    if (!this.node) return;
    this.node.remove();
    this.node = null;
    performance.mark('acp.firstScreenGone');
  }
}
