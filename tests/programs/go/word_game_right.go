// word_game: xor over letters of the Grundy value of each letter's count
package main

import (
	"bufio"
	"fmt"
	"os"
)

func grundy(count int) int {
	if count == 0 {
		return 0
	}
	if count%3 == 0 {
		return 3
	}
	return count % 3
}

func main() {
	var word string
	fmt.Fscan(bufio.NewReader(os.Stdin), &word)
	counts := make([]int, 26)
	for _, c := range word {
		counts[c-'A']++
	}
	x := 0
	for _, c := range counts {
		x ^= grundy(c)
	}
	if x != 0 {
		fmt.Println("Alice")
	} else {
		fmt.Println("Bob")
	}
}
