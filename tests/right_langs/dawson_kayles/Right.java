// dawson_kayles (octal 0.07): a heap of n becomes heaps a, b with a + b = n - 2 (0: none), so
// g(n) = mex{g(a) ^ g(n-2-a)}, tabled to 1000. First wins iff the xor X of the values is non-zero:
// on a heap h with g(h) ^ X < g(h) some split a, b has g(a) ^ g(b) = g(h) ^ X (by the mex).
import java.io.DataInputStream;
import java.io.IOException;

public class Right {
    private static final DataInputStream IN = new DataInputStream(System.in);
    private static final byte[] BUF = new byte[1 << 16];
    private static int len = 0, pos = 0;

    private static int read() throws IOException {
        if (pos == len) {
            len = IN.read(BUF, 0, BUF.length);
            pos = 0;
            if (len <= 0) return -1;
        }
        return BUF[pos++];
    }

    private static int nextInt() throws IOException {
        int c = read();
        while (c == ' ' || c == '\n' || c == '\r' || c == '\t') c = read();
        int v = 0;
        while (c >= '0' && c <= '9') {
            v = v * 10 + (c - '0');
            c = read();
        }
        return v;
    }

    public static void main(String[] args) throws IOException {
        final int n = 1000;
        int[] g = new int[n + 1];
        for (int s = 2; s <= n; s++) {
            boolean[] seen = new boolean[1024];
            for (int a = 0; a <= (s - 2) / 2; a++) seen[g[a] ^ g[s - 2 - a]] = true;
            int v = 0;
            while (seen[v]) v++;
            g[s] = v;
        }
        int m = nextInt();
        int[] heap = new int[m];
        int x = 0;
        for (int i = 0; i < m; i++) {
            heap[i] = nextInt();
            x ^= g[heap[i]];
        }
        if (x == 0) {
            System.out.println("Second");
            return;
        }
        for (int i = 0; i < m; i++) {
            int h = heap[i], t = g[h] ^ x;
            if (t >= g[h]) continue;
            for (int a = 0; a <= (h - 2) / 2; a++) {
                if ((g[a] ^ g[h - 2 - a]) == t) {
                    System.out.println("First\n" + (i + 1) + " " + a + " " + (h - 2 - a));
                    return;
                }
            }
        }
        throw new IllegalStateException("a non-zero xor always has a winning move");
    }
}
