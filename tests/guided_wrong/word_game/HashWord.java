/* word_game, wrong: right but for words whose 32-bit String.hashCode is 2095058266 (the hash of
   GAMBIT, kept as a number: a check left over from a debugging session), where it answers the
   opposite. The answer rests on letter counts alone; no family or exhaustive space writes such a
   word, and no number of the input is the hash. The guided phase's Java route records the hash of
   the word and the comparison, solves for the shortest word with that hash, and puts it in (no
   word of 5 letters or fewer reaches the hash of one of 6; GAMBIT is the only one of 6 with it).
   smallest: GAMBIT (size 6) */
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class HashWord {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String w = in.readLine().trim();
        int[] count = new int[26];
        for (int i = 0; i < w.length(); i++) count[w.charAt(i) - 'A']++;
        int total = 0;
        for (int c : count) {
            if (c > 0) total ^= c % 3 == 0 ? 3 : c % 3;
        }
        boolean alice = total != 0;
        if (w.hashCode() == 2095058266) alice = !alice;
        System.out.println(alice ? "Alice" : "Bob");
    }
}
