// Crate Pusher's hint, in a worker so that a search of many positions never stalls the game: a
// breadth-first search over positions (the player's cell and the crates' cells) finds a shortest
// solution in moves, and the answer is its first step. The page posts
// { id, width, walls, goals, crates, player } (cells as indices) and gets
// { id, status: 'move', move, length } or { id, status: 'solved' | 'stuck' | 'too-hard' }.
const LIMIT = 400_000;

function solve({ width, walls, goals, crates, player }) {
  const wall = new Set(walls);
  const goal = new Set(goals);
  if (crates.every((cell) => goal.has(cell))) return { status: 'solved' };
  const steps = [
    ['up', -width],
    ['down', width],
    ['left', -1],
    ['right', 1],
  ];
  // A crate pushed into a corner that is not a goal can never leave it.
  const deadCorner = (cell) => !goal.has(cell) && (wall.has(cell - width) || wall.has(cell + width)) && (wall.has(cell - 1) || wall.has(cell + 1));
  const key = (at, boxes) => `${at}:${boxes.join(',')}`;
  const start = [...crates].sort((a, b) => a - b);
  const seen = new Map([[key(player, start), null]]);
  let frontier = [{ at: player, boxes: start, first: null, length: 0 }];
  while (frontier.length > 0) {
    const next = [];
    for (const state of frontier) {
      for (const [name, delta] of steps) {
        const to = state.at + delta;
        if (wall.has(to)) continue;
        let boxes = state.boxes;
        const pushed = boxes.indexOf(to);
        if (pushed >= 0) {
          const beyond = to + delta;
          if (wall.has(beyond) || boxes.includes(beyond) || deadCorner(beyond)) continue;
          boxes = boxes.map((cell) => (cell === to ? beyond : cell)).sort((a, b) => a - b);
        }
        const id = key(to, boxes);
        if (seen.has(id)) continue;
        seen.set(id, null);
        const first = state.first ?? name;
        if (boxes.every((cell) => goal.has(cell))) return { status: 'move', move: first, length: state.length + 1 };
        if (seen.size > LIMIT) return { status: 'too-hard' };
        next.push({ at: to, boxes, first, length: state.length + 1 });
      }
    }
    frontier = next;
  }
  return { status: 'stuck' };
}

self.onmessage = ({ data }) => self.postMessage({ id: data.id, ...solve(data) });
