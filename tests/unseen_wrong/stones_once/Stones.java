// kind: each pile's Grundy value by minimax over (stones left, moves used), memo keyed by left * 1024 + (used mask % 1024): collides once moves of 11 and more are used
// expect: WA
import java.io.*;
import java.util.*;

public class Stones {
    static HashMap<Long, Integer> memo = new HashMap<>();

    static int grundy(int left, long used) {
        long key = (long) left * 1024 + (used % 1024);
        Integer m = memo.get(key);
        if (m != null) return m;
        boolean[] seen = new boolean[64];
        for (int k = 1; k <= left; k++) {
            if ((used >> k & 1) != 0) continue;
            seen[grundy(left - k, used | (1L << k))] = true;
        }
        int g = 0;
        while (seen[g]) g++;
        memo.put(key, g);
        return g;
    }

    public static void main(String[] args) throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(System.in, 1 << 16));
        int n = readInt(in);
        int[] value = new int[61];
        for (int s = 1; s <= 60; s++) value[s] = -1;
        int x = 0;
        for (int i = 0; i < n; i++) {
            int s = readInt(in);
            if (value[s] < 0) value[s] = grundy(s, 0);
            x ^= value[s];
        }
        System.out.println(x == 0 ? "YES" : "NO");
    }

    static int readInt(DataInputStream in) throws IOException {
        int r = 0, b = in.read();
        while (b < '0') b = in.read();
        while (b >= '0') { r = r * 10 + b - '0'; b = in.read(); }
        return r;
    }
}
