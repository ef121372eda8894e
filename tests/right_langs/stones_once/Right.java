// stones_once: Jon wins iff the xor of the piles' values is 0 (a pile of s: largest k, k(k+1)/2 <= s).
import java.io.DataInputStream;
import java.io.IOException;

public class Stones {
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
        int[] value = new int[61];
        for (int s = 1; s <= 60; s++) {
            int k = value[s - 1];
            if ((k + 1) * (k + 2) / 2 <= s) k++;
            value[s] = k;
        }
        int n = nextInt();
        int x = 0;
        for (int i = 0; i < n; i++) x ^= value[nextInt()];
        System.out.println(x == 0 ? "YES" : "NO");
    }
}
