// digit_game: n odd -> Raze wins iff an odd position holds an odd digit; n even -> Breach wins
// iff an even position holds an even digit (each player marks the other parity first).
"use strict";
const data = require("fs").readFileSync(0, "utf8").split(/[ \t\r\n]+/).filter((s) => s.length > 0);
let k = 0;
const t = Number(data[k++]);
const out = [];
for (let g = 0; g < t; g++) {
  const n = Number(data[k++]);
  const s = data[k++];
  let winner;
  if (n % 2 === 1) {
    let oddAtOdd = false;
    for (let i = 0; i < n; i += 2) if ((s.charCodeAt(i) - 48) % 2 === 1) oddAtOdd = true;
    winner = oddAtOdd ? 1 : 2;
  } else {
    let evenAtEven = false;
    for (let i = 1; i < n; i += 2) if ((s.charCodeAt(i) - 48) % 2 === 0) evenAtEven = true;
    winner = evenAtEven ? 2 : 1;
  }
  out.push(String(winner));
}
process.stdout.write(out.join("\n") + "\n");
