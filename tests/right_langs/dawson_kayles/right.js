// dawson_kayles (octal 0.07): a heap of n becomes heaps a, b with a + b = n - 2 (0: none), so
// g(n) = mex{g(a) ^ g(n-2-a)}, tabled up to the largest heap. First wins iff the xor X is non-zero,
// moving on a heap h with g(h) ^ X < g(h) to a split worth g(h) ^ X (one exists by the mex).
"use strict";
const data = require("fs").readFileSync(0, "utf8").split(/[ \t\r\n]+/).filter((t) => t.length > 0);
const m = Number(data[0]);
const heap = data.slice(1, 1 + m).map(Number);
const top = Math.max(...heap);
const g = new Int32Array(top + 1);
for (let n = 2; n <= top; n++) {
  const seen = new Uint8Array(1024);
  for (let a = 0; a <= (n - 2) >> 1; a++) seen[g[a] ^ g[n - 2 - a]] = 1;
  let v = 0;
  while (seen[v]) v++;
  g[n] = v;
}
let x = 0;
for (const h of heap) x ^= g[h];
let out = "Second\n";
if (x !== 0) {
  search: for (let i = 0; i < m; i++) {
    const h = heap[i];
    const t = g[h] ^ x;
    if (t >= g[h]) continue;
    for (let a = 0; a <= (h - 2) >> 1; a++) {
      if ((g[a] ^ g[h - 2 - a]) === t) {
        out = `First\n${i + 1} ${a} ${h - 2 - a}\n`;
        break search;
      }
    }
  }
}
process.stdout.write(out);
