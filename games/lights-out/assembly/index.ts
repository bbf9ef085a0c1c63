// The rules of Lights Out in AssemblyScript, compiled to build/lights-out.wasm by
// scripts/build-games.ts. The board lives in this module's memory: the page draws it and forwards
// presses. Pressing a cell toggles it and its four neighbours; every light off wins.

/** The largest side: 7 × 7 cells still fit one u64 per row of the solver's equations. */
const MAX_SIDE = 7;
const MAX_CELLS = MAX_SIDE * MAX_SIDE;

let side = 5;
let cellCount = 25;
let moveCount = 0;
let par = 0;
let random: u32 = 1;

const lit = new StaticArray<u8>(MAX_CELLS);
// Gauss–Jordan elimination over GF(2): one equation per cell, one bit per press.
const rows = new StaticArray<u64>(MAX_CELLS);
const rhs = new StaticArray<u8>(MAX_CELLS);
const pivotRow = new StaticArray<i32>(MAX_CELLS);
const solution = new StaticArray<u8>(MAX_CELLS);
const picked = new StaticArray<u8>(MAX_CELLS);

/** The cells a press of `index` toggles, as bits. */
function reach(index: i32): u64 {
  const row = index / side;
  const column = index % side;
  let mask: u64 = (1 as u64) << (index as u64);
  if (row > 0) mask |= (1 as u64) << ((index - side) as u64);
  if (row < side - 1) mask |= (1 as u64) << ((index + side) as u64);
  if (column > 0) mask |= (1 as u64) << ((index - 1) as u64);
  if (column < side - 1) mask |= (1 as u64) << ((index + 1) as u64);
  return mask;
}

function toggle(index: i32): void {
  const mask = reach(index);
  for (let cell = 0; cell < cellCount; cell++) {
    if ((mask >> (cell as u64)) & 1) unchecked((lit[cell] ^= 1));
  }
}

/** xorshift32: the same level number gives every player the same board. */
function nextRandom(): u32 {
  random ^= random << 13;
  random ^= random >> 17;
  random ^= random << 5;
  return random;
}

/**
 * Finds the fewest presses that turn every light off from the current board, into `solution`.
 * Returns their number, or -1 when the board cannot be solved (never for a generated board).
 */
function solve(): i32 {
  for (let cell = 0; cell < cellCount; cell++) {
    unchecked((rows[cell] = reach(cell)));
    unchecked((rhs[cell] = lit[cell]));
    unchecked((pivotRow[cell] = -1));
  }
  let rank = 0;
  for (let column = 0; column < cellCount; column++) {
    const bit: u64 = (1 as u64) << (column as u64);
    let found = -1;
    for (let row = rank; row < cellCount; row++) {
      if ((unchecked(rows[row]) & bit) != 0) {
        found = row;
        break;
      }
    }
    if (found < 0) continue;
    const swapRow = unchecked(rows[found]);
    unchecked((rows[found] = rows[rank]));
    unchecked((rows[rank] = swapRow));
    const swapRhs = unchecked(rhs[found]);
    unchecked((rhs[found] = rhs[rank]));
    unchecked((rhs[rank] = swapRhs));
    for (let row = 0; row < cellCount; row++) {
      if (row != rank && (unchecked(rows[row]) & bit) != 0) {
        unchecked((rows[row] ^= rows[rank]));
        unchecked((rhs[row] ^= rhs[rank]));
      }
    }
    unchecked((pivotRow[column] = rank));
    rank++;
  }
  for (let row = rank; row < cellCount; row++) if (unchecked(rhs[row])) return -1;

  // The presses are not unique where the system has free columns (two on 5 × 5): try each choice.
  let free: u64 = 0;
  let freeCount = 0;
  for (let column = 0; column < cellCount; column++) {
    if (unchecked(pivotRow[column]) < 0) {
      free |= (1 as u64) << (column as u64);
      freeCount++;
    }
  }
  let best = MAX_CELLS + 1;
  const choices: u32 = (1 as u32) << (freeCount as u32);
  for (let choice: u32 = 0; choice < choices; choice++) {
    let chosen: u64 = 0;
    let bitIndex = 0;
    for (let column = 0; column < cellCount; column++) {
      if ((free >> (column as u64)) & 1) {
        if ((choice >> (bitIndex as u32)) & 1) chosen |= (1 as u64) << (column as u64);
        bitIndex++;
      }
    }
    let presses = chosen;
    for (let column = 0; column < cellCount; column++) {
      const row = unchecked(pivotRow[column]);
      if (row < 0) continue;
      const value = (unchecked(rhs[row]) as u64) ^ (popcnt(unchecked(rows[row]) & chosen) & 1);
      if (value) presses |= (1 as u64) << (column as u64);
    }
    const count = popcnt(presses) as i32;
    if (count < best) {
      best = count;
      for (let cell = 0; cell < cellCount; cell++) unchecked((solution[cell] = ((presses >> (cell as u64)) & 1) as u8));
    }
  }
  return best;
}

/** Starts level `level` (1, 2, …) on a `size` × `size` board; returns the fewest presses that solve it. */
export function newGame(size: i32, level: i32): i32 {
  side = max(3, min(MAX_SIDE, size));
  cellCount = side * side;
  moveCount = 0;
  random = ((level as u32) * 0x9e3779b9) ^ 0x2545f491;
  if (random == 0) random = 1;
  const presses = min(2 + level, cellCount - 2);
  do {
    for (let cell = 0; cell < cellCount; cell++) {
      unchecked((lit[cell] = 0));
      unchecked((picked[cell] = 0));
    }
    // Distinct random presses from a dark board: every generated board can be solved.
    let done = 0;
    while (done < presses) {
      const cell = (nextRandom() % (cellCount as u32)) as i32;
      if (unchecked(picked[cell])) continue;
      unchecked((picked[cell] = 1));
      toggle(cell);
      done++;
    }
    par = solve();
  } while (par <= 0);
  return par;
}

/** Presses a cell: returns 1 when that press turned the last light off, 0 otherwise, -1 for no such cell. */
export function press(index: i32): i32 {
  if (index < 0 || index >= cellCount) return -1;
  toggle(index);
  moveCount++;
  return litCount() == 0 ? 1 : 0;
}

/** 1 when the cell's light is on. */
export function isLit(index: i32): i32 {
  return index >= 0 && index < cellCount ? (unchecked(lit[index]) as i32) : 0;
}

export function litCount(): i32 {
  let count = 0;
  for (let cell = 0; cell < cellCount; cell++) count += unchecked(lit[cell]) as i32;
  return count;
}

export function moves(): i32 {
  return moveCount;
}

/** The fewest presses that solved the level's starting board. */
export function minimumPresses(): i32 {
  return par;
}

/** A cell to press next on the way of a shortest solution from the current board, or -1 when all lights are off. */
export function hint(): i32 {
  if (solve() <= 0) return -1;
  for (let cell = 0; cell < cellCount; cell++) if (unchecked(solution[cell])) return cell;
  return -1;
}
