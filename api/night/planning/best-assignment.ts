/**
 * The assignment of rows to columns with the greatest total weight (the Hungarian method, in the
 * O(rows² · columns) form with potentials). `weight(row, col)` is read once per cell; a weight of 0
 * means "not a pair", and such cells are left out of the answer, so the answer is a matching with the
 * greatest total over the positive cells. Needs rows ≤ columns; exact as long as the weights and their
 * sums are safe integers, which the caller checks (docs/decisions/018-rounds.md).
 *
 * Returns, for each row, its column or -1.
 */
export function bestAssignment(rows: number, cols: number, weight: (row: number, col: number) => number): number[] {
  if (rows > cols) throw new RangeError("bestAssignment needs rows ≤ columns");
  const cost = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) cost[i * cols + j] = -weight(i, j);

  // 1-based, with column 0 as the free end of each augmenting path, as the method is usually written.
  const u = new Float64Array(rows + 1);
  const v = new Float64Array(cols + 1);
  const rowOfCol = new Int32Array(cols + 1);
  const way = new Int32Array(cols + 1);
  const minv = new Float64Array(cols + 1);
  const used = new Uint8Array(cols + 1);
  for (let i = 1; i <= rows; i++) {
    rowOfCol[0] = i;
    let j0 = 0;
    minv.fill(Number.POSITIVE_INFINITY);
    used.fill(0);
    do {
      used[j0] = 1;
      const i0 = rowOfCol[j0]!;
      const base = (i0 - 1) * cols - 1;
      const ui0 = u[i0]!;
      let delta = Number.POSITIVE_INFINITY;
      let j1 = 0;
      for (let j = 1; j <= cols; j++) {
        if (used[j]) continue;
        const cur = cost[base + j]! - ui0 - v[j]!;
        if (cur < minv[j]!) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j]! < delta) {
          delta = minv[j]!;
          j1 = j;
        }
      }
      for (let j = 0; j <= cols; j++) {
        if (used[j]) {
          u[rowOfCol[j]!]! += delta;
          v[j]! -= delta;
        } else minv[j]! -= delta;
      }
      j0 = j1;
    } while (rowOfCol[j0] !== 0);
    do {
      const j1 = way[j0]!;
      rowOfCol[j0] = rowOfCol[j1]!;
      j0 = j1;
    } while (j0 !== 0);
  }

  const colOfRow = new Array<number>(rows).fill(-1);
  for (let j = 1; j <= cols; j++) {
    const i = rowOfCol[j]!;
    if (i > 0 && cost[(i - 1) * cols + j - 1]! < 0) colOfRow[i - 1] = j - 1;
  }
  return colOfRow;
}
