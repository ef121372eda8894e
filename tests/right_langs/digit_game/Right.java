// digit_game: each player marks the parity they do not want left, so with n odd Raze wins iff an
// odd position holds an odd digit, and with n even Breach wins iff an even position holds an even one.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.StringTokenizer;

public class Right {
    private static BufferedReader in;
    private static StringTokenizer tok = new StringTokenizer("");

    private static String next() throws IOException {
        while (!tok.hasMoreTokens()) tok = new StringTokenizer(in.readLine(), " \t\r\n");
        return tok.nextToken();
    }

    public static void main(String[] args) throws IOException {
        in = new BufferedReader(new InputStreamReader(System.in));
        int t = Integer.parseInt(next());
        StringBuilder out = new StringBuilder();
        for (int g = 0; g < t; g++) {
            int n = Integer.parseInt(next());
            String s = next();
            int winner;
            if (n % 2 == 1) {
                boolean oddAtOdd = false;
                for (int i = 0; i < n; i += 2) if ((s.charAt(i) - '0') % 2 == 1) oddAtOdd = true;
                winner = oddAtOdd ? 1 : 2;
            } else {
                boolean evenAtEven = false;
                for (int i = 1; i < n; i += 2) if ((s.charAt(i) - '0') % 2 == 0) evenAtEven = true;
                winner = evenAtEven ? 2 : 1;
            }
            out.append(winner).append('\n');
        }
        System.out.print(out);
    }
}
