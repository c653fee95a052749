/**
 * The cheapest of the largest flows through a small network (primal-dual: Dijkstra with potentials
 * finds the cheapest way from source to sink still open, then every path of that cost is filled at
 * once, Dinic-style, before looking again). Costs are whole numbers ≥ 0 on the arcs as added; the
 * caller keeps them and their sums exact in floating point. Used by the rounds planner to choose
 * which pairs meet when people met at an earlier night (docs/decisions/030-nobody-across-the-table-twice.md).
 *
 * Arcs live in typed arrays, each with its reverse at the index after it: the planner solves one
 * network per plan on the request path, so the hot loops must not allocate.
 */
export class FlowNetwork {
  private readonly head: Int32Array;
  private next: Int32Array;
  private to: Int32Array;
  private residual: Float64Array;
  private cost: Float64Array;
  private capacity: Float64Array;
  private arcs = 0;

  constructor(
    readonly nodes: number,
    expectedArcs = 64,
  ) {
    this.head = new Int32Array(nodes).fill(-1);
    const room = 2 * Math.max(1, expectedArcs);
    this.next = new Int32Array(room);
    this.to = new Int32Array(room);
    this.residual = new Float64Array(room);
    this.cost = new Float64Array(room);
    this.capacity = new Float64Array(room);
  }

  private grow() {
    const size = this.to.length * 2;
    const bigger = <T extends Int32Array | Float64Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(size);
      b.set(a);
      return b;
    };
    this.next = bigger(this.next);
    this.to = bigger(this.to);
    this.residual = bigger(this.residual);
    this.cost = bigger(this.cost);
    this.capacity = bigger(this.capacity);
  }

  private half(from: number, to: number, capacity: number, cost: number) {
    if (this.arcs === this.to.length) this.grow();
    const arc = this.arcs++;
    this.to[arc] = to;
    this.residual[arc] = capacity;
    this.capacity[arc] = capacity;
    this.cost[arc] = cost;
    this.next[arc] = this.head[from]!;
    this.head[from] = arc;
    return arc;
  }

  /** An arc from → to; returns its index, for `flowOn`. */
  addArc(from: number, to: number, capacity: number, cost: number): number {
    if (capacity < 0 || cost < 0) throw new RangeError("arcs need a capacity and a cost ≥ 0");
    const arc = this.half(from, to, capacity, cost);
    this.half(to, from, 0, -cost);
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
    const INF = Number.POSITIVE_INFINITY;
    let flow = 0;
    let total = 0;

    // Dinic's blocking flow over the arcs with reduced cost 0, along a breadth-first level graph.
    const push = (v: number, limit: number): number => {
      if (v === sink) return limit;
      for (let arc = current[v]!; arc !== -1; arc = next[arc]!, current[v] = arc) {
        const w = to[arc]!;
        if (residual[arc]! <= 0 || level[w] !== level[v]! + 1) continue;
        if (cost[arc]! + potential[v]! - potential[w]! !== 0) continue;
        const sent = push(w, Math.min(limit, residual[arc]!));
        if (sent > 0) {
          residual[arc]! -= sent;
          residual[arc ^ 1]! += sent;
          return sent;
        }
      }
      current[v] = -1;
      return 0;
    };

    for (;;) {
      // Dijkstra on the reduced costs (all ≥ 0), dense: the networks here have a few hundred nodes.
      dist.fill(INF);
      done.fill(0);
      dist[source] = 0;
      for (;;) {
        let v = -1;
        let best = INF;
        for (let u = 0; u < n; u++) {
          if (!done[u] && dist[u]! < best) {
            best = dist[u]!;
            v = u;
          }
        }
        if (v < 0) break;
        done[v] = 1;
        const pv = potential[v]!;
        for (let arc = head[v]!; arc !== -1; arc = next[arc]!) {
          if (residual[arc]! <= 0) continue;
          const w = to[arc]!;
          const d = best + cost[arc]! + pv - potential[w]!;
          if (d < dist[w]!) dist[w] = d;
        }
      }
      const far = dist[sink]!;
      if (far === INF) break;
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
          const pv = potential[v]!;
          for (let arc = head[v]!; arc !== -1; arc = next[arc]!) {
            const w = to[arc]!;
            if (residual[arc]! > 0 && level[w] === -1 && cost[arc]! + pv - potential[w]! === 0) {
              level[w] = level[v]! + 1;
              queue[write++] = w;
            }
          }
        }
        if (level[sink] === -1) break;
        current.set(head);
        for (let sent = push(source, INF); sent > 0; sent = push(source, INF)) {
          flow += sent;
          // Every arc on the path has reduced cost 0, so its cost is the potential's rise.
          total += sent * (potential[sink]! - potential[source]!);
        }
      }
    }
    return { flow, cost: total };
  }
}
