// word_game. The file name differs from the class name on purpose.
// A comment naming "public class Decoy {" must not fool the class finder.
import java.io.BufferedReader;
import java.io.InputStreamReader;

class Helper {
    static int grundy(int count) {
        if (count == 0) return 0;
        return count % 3 == 0 ? 3 : count % 3;
    }
}

public final class WordGame {
    static final String NOTE = "public class NotThis { }";

    public static void main(String[] args) throws Exception {
        String word = new BufferedReader(new InputStreamReader(System.in)).readLine().trim();
        int[] counts = new int[26];
        for (char c : word.toCharArray()) counts[c - 'A']++;
        int x = 0;
        for (int c : counts) x ^= Helper.grundy(c);
        System.out.println(x != 0 ? "Alice" : "Bob");
    }

    public static class Nested { }
}
