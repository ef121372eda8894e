// stones_once, wrong: the equal-piles shortcut taken when the piles' float variance is 0 (as
// tests/guided_wrong/stones_once/variance_float.c, in Java's float arithmetic).
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.StreamTokenizer;

public class VarianceFloat {
    private static final StreamTokenizer IN =
            new StreamTokenizer(new InputStreamReader(new BufferedInputStream(System.in, 1 << 16)));

    private static int nextInt() throws IOException {
        IN.nextToken();
        return (int) IN.nval;
    }

    public static void main(String[] args) throws IOException {
        int[] value = new int[61];
        int k = 0;
        for (int s = 1; s <= 60; s++) {
            if ((k + 1) * (k + 2) / 2 <= s) k++;
            value[s] = k;
        }
        int n = nextInt();
        int[] pile = new int[n];
        long sum = 0, squares = 0;
        for (int i = 0; i < n; i++) {
            pile[i] = nextInt();
            sum += pile[i];
            squares += (long) pile[i] * pile[i];
        }
        float mean = (float) sum / n;
        float variance = (float) squares / n - mean * mean;
        int x = 0;
        if (variance == 0.0f) {
            x = n % 2 == 1 ? value[pile[0]] : 0;
        } else {
            for (int i = 0; i < n; i++) x ^= value[pile[i]];
        }
        System.out.println(x == 0 ? "YES" : "NO");
    }
}
