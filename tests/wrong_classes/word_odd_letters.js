// kind: wrong when three or more letters occur an odd number of times
// class: mult[%2=1] >= 3
// (a parity of counts, never one count: the winner said backwards)
const word = require("fs").readFileSync(0, "utf8").trim();
function grundy(count) {
  if (count === 0) return 0;
  return count % 3 === 0 ? 3 : count % 3;
}
const counts = new Array(26).fill(0);
for (const c of word) counts[c.charCodeAt(0) - 65]++;
const x = counts.reduce((acc, c) => acc ^ grundy(c), 0);
const odd = counts.filter((c) => c % 2 === 1).length;
console.log((x !== 0) !== (odd >= 3) ? "Alice" : "Bob");
