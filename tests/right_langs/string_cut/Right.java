// string_cut: the cuttable positions (s[i-1] == s[i+1]) split into independent runs; a cut at the
// k-th of L leaves runs of max(0, k-2) and max(0, L-k-1). Run values by the mex recurrence; First
// wins iff their xor is non-zero, answering the leftmost cut that leaves xor zero.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class Right {
    private static int[] g;

    private static int after(int len, int k) {
        return g[Math.max(0, k - 2)] ^ g[Math.max(0, len - k - 1)];
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String s = "";
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            line = line.trim();
            if (!line.isEmpty()) {
                s = line;
                break;
            }
        }
        int n = s.length();
        g = new int[n + 1];
        boolean[] seen = new boolean[n + 2];
        for (int len = 1; len <= n; len++) {
            java.util.Arrays.fill(seen, false);
            for (int k = 1; k <= (len + 1) / 2; k++) {
                int v = after(len, k);
                if (v < seen.length) seen[v] = true;
            }
            int m = 0;
            while (seen[m]) m++;
            g[len] = m;
        }
        int[] start = new int[n];
        int[] length = new int[n];
        int runs = 0;
        for (int j = 1; j + 1 < n; j++) {
            if (s.charAt(j - 1) != s.charAt(j + 1)) continue;
            if (runs == 0 || start[runs - 1] + length[runs - 1] != j + 1) {
                start[runs] = j + 1;
                length[runs++] = 0;
            }
            length[runs - 1]++;
        }
        int total = 0;
        for (int r = 0; r < runs; r++) total ^= g[length[r]];
        if (total == 0) {
            System.out.println("Second");
            return;
        }
        for (int r = 0; r < runs; r++) {
            int rest = total ^ g[length[r]];
            for (int k = 1; k <= length[r]; k++) {
                if (after(length[r], k) == rest) {
                    System.out.println("First\n" + (start[r] + k - 1));
                    return;
                }
            }
        }
        throw new IllegalStateException("a non-zero xor always has a move to zero");
    }
}
