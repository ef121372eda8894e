// stones_once: Jon (second) wins iff the xor of the pile values is 0.
"use strict";
const data = require("fs").readFileSync(0, "utf8").split(/\s+/).filter((t) => t.length > 0);
const value = new Array(61).fill(0);
for (let s = 1, k = 0; s <= 60; s++) {
  if (((k + 1) * (k + 2)) / 2 <= s) k++;
  value[s] = k;
}
const n = Number(data[0]);
let x = 0;
for (let i = 1; i <= n; i++) x ^= value[Number(data[i])];
process.stdout.write(x === 0 ? "YES\n" : "NO\n");
