// kind: minimax over the whole word's letter counts, memo keyed by a 32-bit polynomial hash of the sorted counts (collisions at larger counts)
// expect: WA
import java.util.*;

public class WordGame {
    static HashMap<Integer, Boolean> memo = new HashMap<>();

    static int key(int[] c) {
        int[] s = c.clone();
        Arrays.sort(s);
        int h = 0;
        for (int v : s) h = h * 7 + v;   // base 7: counts of 7 and more collide
        return h;
    }

    static boolean win(int[] c) {
        int k = key(c);
        Boolean m = memo.get(k);
        if (m != null) return m;
        boolean res = false;
        for (int i = 0; i < 26 && !res; i++) {
            if (c[i] == 0) continue;
            int orig = c[i];
            int[] takes = {1, 2, orig};
            for (int t : takes) {
                if (t > orig) continue;
                c[i] = orig - t;
                if (!win(c)) res = true;
                c[i] = orig;
                if (res) break;
            }
        }
        memo.put(k, res);
        return res;
    }

    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        String w = in.next();
        int[] c = new int[26];
        for (char ch : w.toCharArray()) c[ch - 'A']++;
        System.out.println(win(c) ? "Alice" : "Bob");
    }
}
