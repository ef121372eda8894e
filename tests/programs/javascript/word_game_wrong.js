// word_game: xor over letters of the Grundy value of each letter's count
const word = require("fs").readFileSync(0, "utf8").trim();

function grundy(count) {
  if (count === 0) return 0;
  return count % 3 === 0 ? 0 : count % 3;
}

const counts = new Array(26).fill(0);
for (const c of word) counts[c.charCodeAt(0) - 65]++;
const x = counts.reduce((acc, c) => acc ^ grundy(c), 0);
console.log(x ? "Alice" : "Bob");
