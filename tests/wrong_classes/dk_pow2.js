// kind: wrong when some heap is a power of two (1, 2, 4, ..., 512)
// class: count[pow2] >= 1
// (a class of values, not one value: the winner said backwards)
const data = require("fs").readFileSync(0, "utf8").trim().split(/\s+/).map(Number);
const m = data[0];
const heaps = data.slice(1, 1 + m);
const top = Math.max(2, ...heaps);
const g = new Array(top + 1).fill(0);
for (let n = 2; n <= top; n++) {
  const rest = n - 2;
  const seen = new Set();
  for (let a = 0; a <= Math.floor(rest / 2); a++) seen.add(g[a] ^ g[rest - a]);
  let x = 0;
  while (seen.has(x)) x++;
  g[n] = x;
}
let total = 0;
for (const h of heaps) total ^= g[h];
const flip = heaps.some((h) => (h & (h - 1)) === 0);
if ((total === 0) !== flip) {
  console.log("Second");
} else if (total === 0) {
  console.log("First\n1 0 0");
} else {
  outer: for (let i = m - 1; i >= 0; i--) {
    const h = heaps[i], target = g[h] ^ total;
    if (h < 2) continue;
    const rest = h - 2;
    for (let b = Math.floor(rest / 2); b >= 0; b--) {
      if ((g[rest - b] ^ g[b]) === target) {
        console.log(`First\n${i + 1} ${rest - b} ${b}`);
        break outer;
      }
    }
  }
}
