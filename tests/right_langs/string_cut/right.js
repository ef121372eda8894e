// string_cut: a sum of runs of cuttable positions (s[i-1] == s[i+1]); a cut at the k-th of L leaves
// runs of max(0, k-2) and max(0, L-k-1). Run values by the O(n^2) mex recurrence; First wins iff
// the xor is non-zero, and the answer is the leftmost cut that leaves xor zero.
"use strict";
const s = require("fs").readFileSync(0, "utf8").split(/\s+/).filter((t) => t.length > 0)[0] || "";
const n = s.length;
const g = new Int32Array(n + 1);
const after = (len, k) => g[Math.max(0, k - 2)] ^ g[Math.max(0, len - k - 1)];
const seen = new Uint8Array(n + 2);
for (let len = 1; len <= n; len++) {
  seen.fill(0);
  for (let k = 1; k <= (len + 1) >> 1; k++) {
    const v = after(len, k);
    if (v < seen.length) seen[v] = 1;
  }
  let m = 0;
  while (seen[m]) m++;
  g[len] = m;
}
const runs = []; // [first 1-based position, length]
for (let j = 1; j + 1 < n; j++) {
  if (s[j - 1] !== s[j + 1]) continue;
  const last = runs[runs.length - 1];
  if (last && last[0] + last[1] === j + 1) last[1]++;
  else runs.push([j + 1, 1]);
}
let total = 0;
for (const [, len] of runs) total ^= g[len];
let out = "Second\n";
if (total !== 0) {
  search: for (const [start, len] of runs) {
    const rest = total ^ g[len];
    for (let k = 1; k <= len; k++) {
      if (after(len, k) === rest) {
        out = `First\n${start + k - 1}\n`;
        break search;
      }
    }
  }
}
process.stdout.write(out);
