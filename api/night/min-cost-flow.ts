/**
 * The cheapest of the largest flows through a small network (primal-dual: Dijkstra with potentials
 * finds the cheapest way from source to sink still open, then every path of that cost is filled at
 * once, Dinic-style, before looking again). Costs are whole numbers ≥ 0 on the arcs as added; the
 * caller keeps them and their sums exact in floating point. Used by the rounds planner to choose
 * which pairs meet when people met at an earlier night (docs/decisions/027-nobody-across-the-table-twice.md).
 */
export class FlowNetwork {
  private readonly head: Int32Array;
  private next: number[] = [];
  private to: number[] = [];
  private residual: number[] = [];
  private cost: number[] = [];
  private readonly capacity: number[] = [];

  constructor(readonly nodes: number) {
    this.head = new Int32Array(nodes).fill(-1);
  }

  /** An arc from → to; returns its index, for `flowOn`. */
  addArc(from: number, to: number, capacity: number, cost: number): number {
    if (capacity < 0 || cost < 0) throw new RangeError("arcs need a capacity and a cost ≥ 0");
    const arc = this.to.length;
    for (const [a, b, cap, c] of [
      [from, to, capacity, cost],
      [to, from, 0, -cost],
    ] as const) {
      this.to.push(b);
      this.residual.push(cap);
      this.cost.push(c);
      this.next.push(this.head[a]!);
      this.head[a] = this.to.length - 1;
    }
    this.capacity[arc] = capacity;
    return arc;
  }

  flowOn(arc: number): number {
    return this.capacity[arc]! - this.residual[arc]!;
  }

  /** Sends as much as can go from source to sink, as cheaply as that much can go. */
  solve(source: number, sink: number): { flow: number; cost: number } {
    const n = this.nodes;
    const { head, next, to, residual, cost } = this;
    const potential = new Float64Array(n);
    const dist = new Float64Array(n);
    const done = new Uint8Array(n);
    const level = new Int32Array(n);
    const current = new Int32Array(n);
    const queue = new Int32Array(n);
    let flow = 0;
    let total = 0;

    const reduced = (arc: number, from: number) => cost[arc]! + potential[from]! - potential[to[arc]!]!;

    // Dinic's blocking flow over the arcs with reduced cost 0, along a breadth-first level graph.
    const push = (v: number, limit: number): number => {
      if (v === sink) return limit;
      for (; current[v] !== -1; current[v] = next[current[v]!]!) {
        const arc = current[v]!;
        const w = to[arc]!;
        if (residual[arc]! <= 0 || level[w] !== level[v]! + 1 || reduced(arc, v) !== 0) continue;
        const sent = push(w, Math.min(limit, residual[arc]!));
        if (sent > 0) {
          residual[arc]! -= sent;
          residual[arc ^ 1]! += sent;
          return sent;
        }
      }
      return 0;
    };

    for (;;) {
      // Dijkstra on the reduced costs (all ≥ 0), dense: the networks here have a few hundred nodes.
      dist.fill(Number.POSITIVE_INFINITY);
      done.fill(0);
      dist[source] = 0;
      for (;;) {
        let v = -1;
        for (let u = 0; u < n; u++)
          if (!done[u] && dist[u]! < Number.POSITIVE_INFINITY && (v < 0 || dist[u]! < dist[v]!)) v = u;
        if (v < 0) break;
        done[v] = 1;
        for (let arc = head[v]!; arc !== -1; arc = next[arc]!) {
          if (residual[arc]! <= 0) continue;
          const d = dist[v]! + reduced(arc, v);
          if (d < dist[to[arc]!]!) dist[to[arc]!] = d;
        }
      }
      const far = dist[sink]!;
      if (far === Number.POSITIVE_INFINITY) break;
      // min(dist, dist to the sink) keeps every reduced cost ≥ 0, reached or not.
      for (let v = 0; v < n; v++) potential[v]! += Math.min(dist[v]!, far);

      for (;;) {
        level.fill(-1);
        level[source] = 0;
        let read = 0;
        let write = 0;
        queue[write++] = source;
        while (read < write) {
          const v = queue[read++]!;
          for (let arc = head[v]!; arc !== -1; arc = next[arc]!) {
            const w = to[arc]!;
            if (residual[arc]! > 0 && level[w] === -1 && reduced(arc, v) === 0) {
              level[w] = level[v]! + 1;
              queue[write++] = w;
            }
          }
        }
        if (level[sink] === -1) break;
        current.set(head);
        for (
          let sent = push(source, Number.POSITIVE_INFINITY);
          sent > 0;
          sent = push(source, Number.POSITIVE_INFINITY)
        ) {
          flow += sent;
          // Every arc on the path has reduced cost 0, so its cost is the potential's rise.
          total += sent * (potential[sink]! - potential[source]!);
        }
      }
    }
    return { flow, cost: total };
  }
}
