/* word_game, wrong: a count divisible by 3 is given Grundy value 0.
   public class Decoy { } */
import java.util.Scanner;

public class Main {
    static int grundy(int count) {
        return count % 3;
    }

    public static void main(String[] args) {
        String word = new Scanner(System.in).next();
        int[] counts = new int[26];
        for (char c : word.toCharArray()) counts[c - 'A']++;
        int x = 0;
        for (int c : counts) x ^= grundy(c);
        System.out.println(x != 0 ? "Alice" : "Bob");
    }
}
