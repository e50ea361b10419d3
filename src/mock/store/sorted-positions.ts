/** Where `position` is, or would go, in an ascending array: a binary search, O(log n). */
export function placeOf(positions: readonly number[], position: number): number {
  let low = 0;
  let high = positions.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((positions[middle] as number) < position) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Adds `position`, keeping the array ascending: a push for a new record, a splice for a changed one. */
export function addPosition(positions: number[], position: number): void {
  if (positions.length === 0 || (positions.at(-1) as number) < position) positions.push(position);
  else positions.splice(placeOf(positions, position), 0, position);
}

export function removePosition(positions: number[], position: number): void {
  const at = placeOf(positions, position);
  if (positions[at] === position) positions.splice(at, 1);
}
