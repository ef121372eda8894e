// stones_once, wrong: the equal-piles shortcut taken when the piles' variance, in 32-bit floats
// (Math.fround, as a port of a C float program would), is 0.
const data = require("fs").readFileSync(0, "utf8").split(/\s+/).filter(Boolean).map(Number);
const n = data[0];
const value = [0];
let k = 0;
for (let s = 1; s <= 60; s++) {
  if (((k + 1) * (k + 2)) / 2 <= s) k++;
  value.push(k);
}
let sum = 0, squares = 0;
for (let i = 1; i <= n; i++) {
  sum += data[i];
  squares += data[i] * data[i];
}
const f = Math.fround;
const mean = f(f(sum) / n);
const variance = f(f(f(squares) / n) - f(mean * mean));
let x = 0;
if (variance === 0) {
  x = n % 2 ? value[data[1]] : 0;
} else {
  for (let i = 1; i <= n; i++) x ^= value[data[i]];
}
console.log(x === 0 ? "YES" : "NO");
