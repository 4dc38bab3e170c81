/**
 * Heights of the thread's entries and their running offsets, for the virtual list. A Fenwick
 * tree keeps `offsetOf` and `indexAt` logarithmic, so a 20,000-entry replay never walks the
 * whole list per frame.
 */
export class HeightIndex {
  private heights: Float64Array;
  private tree: Float64Array;
  private count = 0;

  constructor(capacity = 1024) {
    this.heights = new Float64Array(capacity);
    this.tree = new Float64Array(capacity + 1);
  }

  get length(): number {
    return this.count;
  }

  /** Sum of all heights. */
  get total(): number {
    return this.offsetOf(this.count);
  }

  heightOf(index: number): number {
    return this.heights[index];
  }

  /** Appends one entry's height. */
  push(height: number): void {
    if (this.count === this.heights.length) this.grow();
    this.count++;
    this.set(this.count - 1, height);
  }

  /** Sets the height at `index` (index < length). */
  set(index: number, height: number): void {
    const delta = height - this.heights[index];
    if (delta === 0) return;
    this.heights[index] = height;
    for (let i = index + 1; i < this.tree.length; i += i & -i) this.tree[i] += delta;
  }

  /** Sum of the heights before `index`. */
  offsetOf(index: number): number {
    let sum = 0;
    for (let i = Math.min(index, this.count); i > 0; i -= i & -i) sum += this.tree[i];
    return sum;
  }

  /** The entry that covers `offset`: the largest index whose offset is <= offset (clamped). */
  indexAt(offset: number): number {
    if (this.count === 0) return 0;
    let pos = 0;
    let remaining = offset;
    let step = 1;
    while (step * 2 < this.tree.length) step *= 2;
    for (; step > 0; step >>= 1) {
      const next = pos + step;
      if (next < this.tree.length && next <= this.count && this.tree[next] <= remaining) {
        pos = next;
        remaining -= this.tree[next];
      }
    }
    return Math.min(pos, this.count - 1);
  }

  /** Drops everything (a new snapshot). */
  clear(): void {
    this.heights.fill(0);
    this.tree.fill(0);
    this.count = 0;
  }

  private grow(): void {
    const heights = new Float64Array(this.heights.length * 2);
    heights.set(this.heights);
    this.heights = heights;
    // Rebuild in O(n): each node adds itself to its parent.
    const tree = new Float64Array(heights.length + 1);
    for (let i = 1; i < tree.length; i++) {
      tree[i] += heights[i - 1];
      const parent = i + (i & -i);
      if (parent < tree.length) tree[parent] += tree[i];
    }
    this.tree = tree;
  }
}
